#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

@testable import OnAir

/// Clocks made by hand: the monotonic clock moves only when told, the wall clock is the monotonic
/// one plus an offset a test steps, and the kernel's synchronization state is a flag.
final class SteppedClocks: Sendable {
    private let state = Locked((monotonic: 1000.0, offset: 1_796_000_000.0 - 1000, synchronized: true))
    /// The anchored time line over these clocks.
    let clock: AnchoredClock

    init(tolerance: Double = 2) {
        let state = self.state
        clock = AnchoredClock(
            wall: { state.withLock { Date(timeIntervalSince1970: $0.monotonic + $0.offset) } },
            monotonic: { state.withLock { $0.monotonic } },
            synchronized: { state.withLock { $0.synchronized } }, tolerance: tolerance)
    }

    func set(monotonic: Double) { state.withLock { $0.monotonic = monotonic } }
    func advance(_ seconds: Double) { state.withLock { $0.monotonic += seconds } }
    func step(_ seconds: Double) { state.withLock { $0.offset += seconds } }
    func synchronize(_ on: Bool) { state.withLock { $0.synchronized = on } }
    var wall: Date { clock.wall() }
}

/// The recording across wall-clock steps (issue 43): back an hour, forward 40 days, retention by
/// age, size and free space all on; a name that comes again; a clock the kernel has not
/// synchronized. Clocks are injected: a minute of recording and two days of retention run in a
/// second or two.
@Suite struct RecordingClockStepTests {
    /// 62 s of 64x64 video at 10 fps, a keyframe every second.
    static let packets: [EncodedPacket] = {
        let video = try! SyntheticVideo(width: 64, height: 64, frameRate: 10)
        let encoder = try! H264Encoder(
            settings: VideoEncoderSettings(
                width: 64, height: 64, expectedFrameRate: 10, averageBitRate: 100_000, maxKeyFrameInterval: 10,
                maxKeyFrameIntervalDuration: 1, allowFrameReordering: false, encoder: "libx264"),
            hardware: .none)
        var packets: [EncodedPacket] = []
        for frame in SyntheticTestMedia.frames(video, count: 620) { packets += try! encoder.encode(frame) }
        return packets + (try! encoder.flush())
    }()

    static func settings(in directory: URL, template: String = "/%path/%Y-%m-%d_%H-%M-%S-%f") throws -> RecordingSettings {
        var settings = RecordingSettings(
            template: try RecordPathTemplate(directory.path + template, timeZone: TimeZone(identifier: "UTC")!))
        settings.segmentDuration = .seconds(5)
        settings.partDuration = .seconds(1)
        settings.retention = RetentionPolicy(deleteAfter: .seconds(86_400), maxBytes: 1 << 40, minFreeBytes: 1 << 20)
        return settings
    }

    @Test func theLineKeepsItsCourseBackAndJumpsAheadWithTheClock() {
        let clocks = SteppedClocks()
        let steps = Locked([Duration]())
        clocks.clock.observeSteps { step in steps.withLock { $0.append(step) } }
        let start = clocks.clock.now()
        clocks.advance(10)
        clocks.step(-3600)
        // Back an hour: the line goes on from where it was; the step is seen once.
        #expect(clocks.clock.now() == start.addingTimeInterval(10))
        clocks.advance(1)
        #expect(clocks.clock.now() == start.addingTimeInterval(11))
        #expect(clocks.clock.steps == 1)
        // Forward 40 days: the line follows the wall clock (a gap, never a repeat).
        clocks.step(40 * 86_400)
        #expect(clocks.clock.now() == clocks.wall)
        #expect(clocks.clock.steps == 2 && steps.current == [.seconds(-3600), .seconds(40 * 86_400)])
        // Drift within the tolerance is no step.
        clocks.step(1.5)
        #expect(clocks.clock.steps == 2)
    }

    /// The scenario, recorder-level: 5 s segments, 1 day retention, the wall clock −1 h at
    /// 20 s and +40 days at 40 s, 62 s in all.
    @Test func stepsBackAndForwardLoseNothingAndListTheRecordingAsItWas() throws {
        let directory = try Tools.temporaryDirectory("clock-steps")
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = try Self.settings(in: directory)
        let clocks = SteppedClocks()
        let lines = Lines()
        let recorder = try SegmentedRecorder(
            settings: settings, streams: [.video], clock: clocks.clock, freeBytes: { _ in 1 << 40 }, log: { lines.append($0) })
        var sizes: [String: Int64] = [:]
        var stepped = (back: false, forward: false)
        for packet in Self.packets {
            let time = packet.dts.seconds
            clocks.set(monotonic: 1000 + time)
            if time >= 20 && !stepped.back {
                clocks.step(-3600)
                stepped.back = true
            }
            if time >= 40 && !stepped.forward {
                clocks.step(40 * 86_400)
                stepped.forward = true
            }
            try recorder.write(packet)
            if packet.isKeyframe {
                recorder.sweepRetention()
                for segment in settings.index.scan() {
                    #expect(segment.size >= sizes[segment.path] ?? 0, "\(segment.path) shrank")
                    sizes[segment.path] = segment.size
                }
            }
        }
        try recorder.finish()
        #expect(clocks.clock.steps == 2)
        #expect(!lines.all.contains { $0.contains("deleted") }, "\(lines.all)")
        let segments = settings.index.scan()
        #expect(segments.count == 13, "\(segments.map(\.path))")
        #expect(Set(segments.map(\.path)).count == segments.count)
        // Starts never go back; durations are the segments' own and add up to the recording.
        #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.start < $1.start })
        let total = segments.compactMap(\.duration).reduce(0, +)
        #expect(abs(total - 62) < 0.2, "\(total)")
        // Three runs: none joined across a step.
        let spans = PlaybackPlan.spans(segments, start: nil, end: nil)
        #expect(spans.count == 3, "\(spans)")
        #expect(abs(spans.map(\.duration).reduce(0, +) - total) < 0.01)
        // Every frame encoded is on disk (ffprobe counts them).
        var frames = 0
        for segment in segments {
            let probe = try Tools.run(
                "ffprobe",
                [
                    "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries", "stream=nb_read_packets",
                    "-of", "csv=p=0", segment.path,
                ])
            frames += Int(probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        #expect(frames == Self.packets.count, "\(frames) of \(Self.packets.count)")

        // Two days later on a clock that agrees, retention by age deletes them all (the month of
        // retention in a second), and the journal is rewritten without them.
        clocks.advance(2 * 86_400)
        let sweeper = RetentionSweeper(index: settings.index, policy: settings.retention, clock: clocks.clock, log: { lines.append($0) })
        sweeper.sweep(writing: nil)
        #expect(settings.index.scan().isEmpty)
    }

    @Test func aNameThatComesAgainGetsASuffixAndReadsBackToItsStart() throws {
        let directory = try Tools.temporaryDirectory("clock-repeat")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Whole seconds in the name: a step back of 10 s gives the first name again.
        let settings = try Self.settings(in: directory, template: "/%path/%Y-%m-%d_%H-%M-%S")
        let clocks = SteppedClocks()
        let lines = Lines()
        let recorder = try SegmentedRecorder(
            settings: settings, streams: [.video], clock: clocks.clock, freeBytes: { _ in 1 << 40 }, log: { lines.append($0) })
        var stepped = false
        for packet in Self.packets.prefix(160) {
            clocks.set(monotonic: 1000 + packet.dts.seconds)
            if packet.dts.seconds >= 10 && !stepped {
                clocks.step(-10)
                stepped = true
            }
            try recorder.write(packet)
        }
        try recorder.finish()
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("live").path)
            .filter { $0.hasSuffix(".mp4") }.sorted()
        #expect(names.contains { $0.hasSuffix("_2.mp4") }, "\(names) \(lines.all)")
        #expect(lines.all.contains { $0.contains("exists (the wall clock went back)") })
        let template = settings.template
        for name in names {
            let base = directory.path + "/live/" + name.dropLast(4)
            #expect(template.startTime(of: base, pathName: "live") != nil, "\(name)")
        }
        let segments = settings.index.scan()
        #expect(segments.count == names.count && zip(segments, segments.dropFirst()).allSatisfy { $0.start < $1.start })
    }

    @Test func retentionByAgeWaitsForTheKernelsClockAndSaysSo() throws {
        let directory = try Tools.temporaryDirectory("clock-unsync")
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = try Self.settings(in: directory)
        let clocks = SteppedClocks()
        clocks.synchronize(false)
        let lines = Lines()
        let recorder = try SegmentedRecorder(
            settings: settings, streams: [.video], clock: clocks.clock, freeBytes: { _ in 1 << 40 }, log: { lines.append($0) })
        for packet in Self.packets.prefix(120) {
            clocks.set(monotonic: 1000 + packet.dts.seconds)
            try recorder.write(packet)
        }
        let before = settings.index.scan().count
        clocks.advance(2 * 86_400)
        recorder.sweepRetention()
        #expect(settings.index.scan().count == before)
        #expect(lines.all.filter { $0.contains("retention by age waits") }.count == 1, "\(lines.all)")
        clocks.synchronize(true)
        recorder.sweepRetention()
        // All but the one being written go; the log says why.
        #expect(settings.index.scan().count == 1)
        #expect(lines.all.contains { $0.contains("the wall clock is synchronized") })
        try recorder.finish()
    }
}
#endif
