#if os(Linux)
import Foundation
import OnAir
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

/// Every file kind OnAir writes, made to fail at every moment of its life (open, header, a packet,
/// trailer, close) through the `WriteFaults` seam: the failure is reported once, naming the output
/// and the system's reason, and another output written at the same time is complete.
///
/// Deterministic: a 3-second clip is transcoded as fast as it decodes (`FileTranscoder`, the
/// engine of `onair encode`) or played without a window (`Player`, the engine of `onair play -o`);
/// nothing races a clock.
@Suite struct WriteFailureMomentTests {
    /// What is written, and by which engine.
    enum Kind: String, CaseIterable, Sendable {
        case mp4, mp4Faststart, mov, ts, flv, h264, aac, hlsTS, hlsFMP4
        case playY4M, playWAV, playMP4

        /// The output's file name inside the failing directory.
        var fileName: String {
            switch self {
            case .mp4, .mp4Faststart: return "out.mp4"
            case .mov: return "out.mov"
            case .ts: return "out.ts"
            case .flv: return "out.flv"
            case .h264: return "out.h264"
            case .aac: return "out.aac"
            case .hlsTS, .hlsFMP4: return "stream.m3u8"
            case .playY4M: return "out.y4m"
            case .playWAV: return "out.wav"
            case .playMP4: return "copy.mp4"
            }
        }

        var isPlay: Bool { [.playY4M, .playWAV, .playMP4].contains(self) }

        /// The moments this kind has: elementary streams and Y4M write nothing at the end.
        var moments: [WriteMoment] {
            let hasTrailer = ![.h264, .aac, .playY4M].contains(self)
            return [.open, .header, .packet(5)] + (hasTrailer ? [.trailer] : []) + [.close]
        }
    }

    /// One kind failing at one moment.
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var moment: WriteMoment
        var testDescription: String { "\(kind.rawValue) at \(moment)" }
        /// A full disk, but an I/O error for a failing close (what NFS or a dying disk returns there).
        var errorNumber: Int32 { moment == .close ? EIO : ENOSPC }
    }

    static let cases = Kind.allCases.flatMap { kind in kind.moments.map { Case(kind: kind, moment: $0) } }

    /// 3 s of 25 fps 160x120 H.264 with keyframes every second, and AAC: made once.
    static let clip: Result<String, any Error> = Result {
        let dir = try Tools.temporaryDirectory("write-moments-clip")
        let path = dir.appendingPathComponent("clip.mp4").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=sample_rate=48000",
            "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
            "-c:a", "aac", path,
        ])
        return path
    }

    @Test(arguments: cases)
    func aFailureAtAnyMomentIsReportedAndTheOtherOutputIsComplete(_ test: Case) throws {
        let clip = try Self.clip.get()
        let dir = try Tools.temporaryDirectory("write-moments")
        defer { try? FileManager.default.removeItem(at: dir) }
        let failing = dir.appendingPathComponent("failing")
        try FileManager.default.createDirectory(at: failing, withIntermediateDirectories: true)
        let output = failing.appendingPathComponent(test.kind.fileName).path
        let injection = WriteFaults.inject(at: test.moment, errorNumber: test.errorNumber, under: failing.path)
        defer { injection.remove() }
        let reason = String(cString: strerror(test.errorNumber))
        if test.kind.isPlay {
            try play(clip, to: output, reason: reason)
        } else {
            try transcode(test.kind, clip, to: output, healthy: dir.appendingPathComponent("ok.mp4").path, reason: reason)
        }
        #expect(injection.failureCount > 0, "the fault never fired: the test proves nothing")
    }

    /// `onair encode`'s path: the failing output and a healthy MP4 written from one encode.
    private func transcode(_ kind: Kind, _ clip: String, to output: String, healthy: String, reason: String) throws {
        var options = SinkFactory.ContainerOptions()
        options.faststart = kind == .mp4Faststart
        options.hlsSegmentDuration = .seconds(1)
        options.hlsFragmentedMP4 = kind == .hlsFMP4
        let video = VideoEncoderSettings(
            width: 160, height: 120, expectedFrameRate: 25, averageBitRate: 300_000,
            maxKeyFrameIntervalDuration: 1, realTime: false, encoder: "libx264")
        let transcoder = try FileTranscoder(
            input: clip, video: SinkFactory.videoSettings(video, for: [output], options: options),
            audio: AudioEncoderSettings(sampleRate: 48_000, channels: 1, bitRate: 64_000))
        let failingSink: any PacketSink
        do {
            failingSink = try SinkFactory.sink(for: output, streams: SinkFactory.streams(for: output), options: options)
        } catch {
            // A file opened at once (.h264, .aac) fails when it is created: the command stops there.
            #expect("\(error)".contains(output) && "\(error)".contains(reason), "\(error)")
            return
        }
        let healthySink = try SinkFactory.sink(for: healthy, streams: [.video, .audio])
        let reports = Reports()
        var thrown: (any Error)?
        do {
            try transcoder.run(sinks: [failingSink, healthySink], outputFailed: { reports.add($0) })
        } catch {
            thrown = error
        }
        let failures = reports.all
        #expect(failures.map(\.destination) == [output], "reported: \(failures)")
        #expect(failures.first?.reason.contains(reason) == true, "reported: \(failures)")
        let outcome = try #require(thrown as? OutputsFailedError, "run ended with \(String(describing: thrown))")
        #expect(outcome.failures.map(\.destination) == [output])
        #expect(try Self.videoFrames(healthy) == 75, "the healthy output is incomplete")
    }

    /// `onair play -o`'s path: the player stops with an error naming the output and the reason.
    private func play(_ clip: String, to output: String, reason: String) throws {
        var configuration = Player.Configuration(url: clip)
        configuration.output = output
        configuration.hardware = HardwareDecoding.none
        let player = try Player(configuration: configuration)
        player.start()
        #expect(player.wait(timeout: 120), "the player did not finish")
        let error = try #require(player.error, "the player finished without an error")
        #expect("\(error)".contains(output) && "\(error)".contains(reason), "\(error)")
    }

    /// Decoded video frames in `path`, counted by ffprobe.
    static func videoFrames(_ path: String) throws -> Int {
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", path])
        return Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
    }

    /// The failures `outputFailed` heard, in order (it is called on the encoder threads).
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [OutputFailure] = []
        func add(_ failure: OutputFailure) { lock.withLock { failures.append(failure) } }
        var all: [OutputFailure] { lock.withLock { failures } }
    }
}
#endif
