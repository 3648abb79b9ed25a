import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// A LiveSession never stops for one bad output or one bad live control.
@Suite struct LiveSessionResilienceTests {
    /// A sink that fails (as a full disk would) on its `failAt`-th packet.
    final class FailingSink: PacketSink, @unchecked Sendable {
        let destination = "failing-output"
        let failAt: Int
        private var written = 0
        init(failAt: Int) { self.failAt = failAt }
        func write(_ packet: EncodedPacket) throws {
            written += 1
            if written >= failAt { throw SinkError.writeFailed(destination: destination, reason: "No space left on device") }
        }
        func finish() throws {}
    }

    /// Messages a handler heard, from any thread.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    static func videoFrames(_ path: String) throws -> Int {
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", path])
        return Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
    }

    /// Runs 3 s of the synthetic source as fast as it goes into `sinks`.
    static func run(
        sinks: [any PacketSink], video: VideoEncoderSettings, heard: Heard,
        before: (LiveSession) -> Void = { _ in }
    ) throws -> (LiveSession, (any Error)?) {
        var configuration = LiveSession.Configuration(video: video, audio: AudioEncoderSettings())
        configuration.duration = 3
        configuration.dropLateVideo = false
        let source = try SyntheticSource(video: (video.width, video.height, 30), audio: (48_000, 2), fast: true, duration: 3)
        let session = try LiveSession(
            configuration: configuration, sources: [source], sinks: sinks,
            outputFailed: { heard.add("failed \($0.destination): \($0.reason)") },
            notices: { heard.add($0) })
        before(session)
        try session.start()
        #expect(session.waitForSources(timeout: 120))
        do { try session.stop() } catch { return (session, error) }
        return (session, nil)
    }

    @Test func aFailedOutputIsReportedAndTheOthersAreComplete() throws {
        let dir = try Tools.temporaryDirectory("live-failing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("good.mp4").path
        let good = try SinkFactory.sink(for: path, streams: [.video, .audio])
        let heard = Heard()
        let video = VideoEncoderSettings(width: 160, height: 120, expectedFrameRate: 30, averageBitRate: 200_000)
        let (session, error) = try Self.run(sinks: [FailingSink(failAt: 20), good], video: video, heard: heard)
        let failed = try #require(error as? OutputsFailedError, "\(String(describing: error))")
        #expect(failed.failures.map(\.destination) == ["failing-output"])
        #expect(failed.description.contains("No space left on device"))
        #expect(heard.all.filter { $0.hasPrefix("failed") }.count == 1, "\(heard.all)")
        #expect(session.outputFailures.count == 1)
        #expect(try Self.videoFrames(path) == 90)
    }

    @Test func bitRateAboveTheLevelIsClampedAndTheStreamGoesOn() throws {
        let dir = try Tools.temporaryDirectory("live-clamp")
        defer { try? FileManager.default.removeItem(at: dir) }
        var video = VideoEncoderSettings(width: 160, height: 120, expectedFrameRate: 30, averageBitRate: 200_000)
        video.profileLevel.level = .l3
        for (rate, word) in [(500_000_000, "clamped"), (0, "refused")] {
            let path = dir.appendingPathComponent("\(word).mp4").path
            let sink = try SinkFactory.sink(for: path, streams: [.video, .audio])
            let heard = Heard()
            let (session, error) = try Self.run(sinks: [sink], video: video, heard: heard) { session in
                session.setBitRate(average: rate, dataRateLimits: [DataRateLimit(bytes: rate / 8 + 1, seconds: 1)])
            }
            #expect(error == nil, "\(String(describing: error))")
            #expect(heard.all.contains { $0.contains(word) }, "\(heard.all)")
            #expect(try Self.videoFrames(path) == 90, "\(word)")
            let target = session.statistics().targetBitRate
            #expect(
                word == "refused" ? target == 200_000 : target == H264Level.l3.maxBitRate(for: video.profileLevel.profile),
                "\(word): \(target)")
        }
    }
}
