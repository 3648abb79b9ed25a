#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Runs a process on a background thread while the test does something else.
final class BackgroundProcess: @unchecked Sendable {
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var outcome: Result<ProcessResult, any Error>?

    /// Starts `executable` with `arguments` at once.
    init(_ executable: String, _ arguments: [String]) {
        DispatchQueue.global().async { [self] in
            let value = Result { try Tools.run(executable, arguments) }
            lock.lock()
            outcome = value
            lock.unlock()
            finished.signal()
        }
    }

    /// Whether the process has ended.
    var hasFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return outcome != nil
    }

    /// Waits for the process to end and returns what it printed.
    func result() throws -> ProcessResult {
        finished.wait()
        finished.signal()
        lock.lock()
        defer { lock.unlock() }
        return try outcome!.get()
    }
}

/// `onair play`: a file and a live UDP stream decode with the right fields and no errors; the
/// latency of a live synthetic stream over UDP on loopback.
@Suite(.serialized) struct PlayCommandTests {
    static func playJSON(_ result: ProcessResult) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    /// A 6-second 1280x720 30 fps H.264 + 48 kHz stereo AAC clip recorded by onair, as MPEG-TS.
    static func clip(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("clip.ts").path
        let result = try Tools.run(Tools.onairExecutable, ["record", "--fast", "--duration", "6", "--size", "1280x720", "-o", path])
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    /// The same fields as ffprobe sees them in the source.
    static func expectAgreesWithFFprobe(_ report: [String: Any], source: String) throws {
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", source])
        let streams = info["streams"] as? [[String: Any]] ?? []
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        let playedVideo = report["video"] as? [String: Any] ?? [:]
        let playedAudio = report["audio"] as? [String: Any] ?? [:]
        #expect(playedVideo["codec"] as? String == video["codec_name"] as? String)
        #expect(playedVideo["width"] as? Int == video["width"] as? Int)
        #expect(playedVideo["height"] as? Int == video["height"] as? Int)
        #expect(playedAudio["codec"] as? String == audio["codec_name"] as? String)
        #expect(String(playedAudio["sample_rate"] as? Int ?? 0) == audio["sample_rate"] as? String)
        #expect(playedAudio["channels"] as? Int == audio["channels"] as? Int)
        let rate = (video["avg_frame_rate"] as? String).flatMap(FFprobeSummary.rational) ?? 0
        #expect(abs((report["fps"] as? Double ?? 0) - rate) < 0.5, "fps \(report["fps"] ?? "nil") vs ffprobe \(rate)")
    }

    @Test func aFileDecodesWithTheFieldsFFprobeFinds() throws {
        let dir = try Tools.temporaryDirectory("play-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Self.clip(in: dir)
        let report = try Self.playJSON(try Tools.run(Tools.onairExecutable, ["play", "--no-display", source, "--json"]))
        try Self.expectAgreesWithFFprobe(report, source: source)
        let counted = try Tools.ffprobeJSON(["-count_frames", "-select_streams", "v", "-show_streams", source])
        let frames = Int(((counted["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String) ?? "") ?? -1
        #expect(report["frames"] as? Int == frames)
        #expect(report["decode_errors"] as? Int == 0)
        #expect(report["freezes"] as? Int == 0)
    }

    @Test func outputsAreDecodedVideoDecodedAudioOrACopy() throws {
        let dir = try Tools.temporaryDirectory("play-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Self.clip(in: dir)
        for name in ["out.y4m", "out.wav", "out.mp4"] {
            let output = dir.appendingPathComponent(name).path
            let result = try Tools.run(Tools.onairExecutable, ["play", "--no-display", source, "--duration", "2", "-o", output])
            #expect(result.status == 0, "\(result.stderr)")
            let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", output])
            let codecs = (info["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }
            switch name {
            case "out.y4m":
                #expect(codecs == ["rawvideo"])
                let frames = Int(((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String) ?? "") ?? 0
                #expect(abs(frames - 60) <= 1, "\(frames) frames in the y4m")
            case "out.wav":
                #expect(codecs.count == 1 && codecs[0].hasPrefix("pcm_"), "\(codecs)")
            default:
                #expect(Set(codecs) == ["h264", "aac"])
            }
        }
    }

    @Test func aUDPStreamFromFFmpegDecodesWithoutErrors() throws {
        let dir = try Tools.temporaryDirectory("play-udp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = try Self.clip(in: dir)
        // The player listens (on a port of `StreamTestPorts.peer`: FFmpeg binds it) before the sender sends.
        let (player, port) = try StreamTestPorts.peer(udp: true) { port in
            try StreamTestProcess(
                Tools.onairExecutable, ["play", "--no-display", "udp://127.0.0.1:\(port)", "--duration", "4", "--json"],
                stderrPath: dir.appendingPathComponent("play.log").path, stdoutPath: dir.appendingPathComponent("play.json").path)
        }
        defer { player.kill() }
        let sender = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-i", source,
                "-c", "copy", "-f", "mpegts", "udp://127.0.0.1:\(port)?pkt_size=1316",
            ])
        #expect(sender.status == 0, "\(sender.stderr)")
        let report = try Self.playJSON(player.result())
        try Self.expectAgreesWithFFprobe(report, source: source)
        #expect((report["frames"] as? Int ?? 0) >= 100)
        #expect(report["decode_errors"] as? Int == 0)
    }

    @Test func latencyOfALiveSyntheticStreamOverUDP() throws {
        let dir = try Tools.temporaryDirectory("play-latency")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The player listens (on a port of `StreamTestPorts.peer`: FFmpeg binds it) before the sender sends.
        let (player, port) = try StreamTestPorts.peer(udp: true) { port in
            try StreamTestProcess(
                Tools.onairExecutable,
                [
                    "play", "--no-display", "--measure-latency", "udp://127.0.0.1:\(port)",
                    "--duration", "5", "--json",
                ], stderrPath: dir.appendingPathComponent("play.log").path, stdoutPath: dir.appendingPathComponent("play.json").path)
        }
        defer { player.kill() }
        let sender = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--duration", "8", "--size", "1280x720", "--fps", "30",
                "-o", "udp://127.0.0.1:\(port)",
            ])
        #expect(sender.status == 0, "\(sender.stderr)")
        let played = player.result()
        let report = try Self.playJSON(played)
        let latency = try #require(report["latency_ms"] as? [String: Any], "\(played.stderr)")
        let p50 = latency["p50"] as? Double ?? .infinity
        print("latency over UDP at 1280x720 30 fps: p50 \(p50) ms, p95 \(latency["p95"] ?? "-") ms, max \(latency["max"] ?? "-") ms")
        #expect((latency["samples"] as? Int ?? 0) >= 100)
        // Latency figures (p50 under 100 ms on an idle machine) are measured by
        // bench/stream_latency.sh, not asserted here: a loaded CI machine would make a timed
        // assertion flaky. This bound only catches gross buffering (a second of probing or queueing).
        #expect(p50 > 0 && p50 < 500, "p50 \(p50) ms")
        #expect(report["decode_errors"] as? Int == 0)
    }

    /// A receiver joining a live stream between keyframes waits for the next one: the packets
    /// before it are counted, not decoded and not reported as errors.
    @Test func joiningAUDPStreamMidGOPStartsCleanlyAtTheNextKeyframe() throws {
        let dir = try Tools.temporaryDirectory("play-midgop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("copy.mp4").path  // MP4 needs the size and parameter sets the probe missed
        // The sender first, then the player on its port (FFmpeg binds it: a port of
        // `StreamTestPorts.peer`); when that port is taken, both start again on another.
        var sender: StreamTestProcess?
        let (player, _) = try StreamTestPorts.peer(udp: true) { port in
            sender?.kill()
            sender = try StreamTestProcess(
                Tools.onairExecutable,
                [
                    "stream", "--duration", "7", "--size", "640x360", "--fps", "30",
                    "--preset", "ultrafast", "--keyint-duration", "2", "--no-adaptive",
                    "udp://127.0.0.1:\(port)",
                ], stderrPath: dir.appendingPathComponent("stream.log").path)
            letTimePass(1.3, "well inside the first 2 s GOP")
            return try StreamTestProcess(
                Tools.onairExecutable,
                [
                    "play", "--no-display", "udp://127.0.0.1:\(port)", "--duration", "3", "--json", "--timeout", "15",
                    "-o", copy,
                ], stderrPath: dir.appendingPathComponent("play.log").path, stdoutPath: dir.appendingPathComponent("play.json").path)
        }
        defer { player.kill() }
        let played = player.result()
        let sent = try #require(sender).result()
        #expect(sent.status == 0, "\(sent.stderr)")
        let report = try Self.playJSON(played)
        print(
            "joined mid-GOP: frames \(report["frames"] ?? "-"), skipped \(report["packets_before_keyframe"] ?? "-"), errors \(report["decode_errors"] ?? "-")"
        )
        #expect((report["packets_before_keyframe"] as? Int ?? 0) > 0, "\(report)")
        #expect(report["decode_errors"] as? Int == 0, "\(report) \(played.stderr)")
        #expect((report["frames"] as? Int ?? 0) >= 85, "\(report)")
        #expect(report["freezes"] as? Int == 0, "\(report)")
        // The packet copy starts on that keyframe too, so it decodes cleanly from its first byte.
        let first = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v", "-read_intervals", "%+#1",
                "-show_entries", "packet=flags", "-of", "csv=p=0", copy,
            ])
        #expect(first.stdoutText.hasPrefix("K"), "first video packet flags: \(first.stdoutText)")
        let decoded = try Tools.run("ffmpeg", ["-v", "error", "-i", copy, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
    }

    /// Hardware decoding is tried and falls back to software with each reason; demanded by name,
    /// its absence is an error; `none` tries nothing.
    @Test func hardwareDecodingFallsBackCleanlyAndSaysWhy() throws {
        let dir = try Tools.temporaryDirectory("play-hwaccel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.mp4").path
        let recorded = try Tools.run(Tools.onairExecutable, ["record", "--fast", "--duration", "2", "--size", "320x240", "-o", clip])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let renderNode = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("renderD") }

        let automatic = try Self.playJSON(try Tools.run(Tools.onairExecutable, ["play", "--no-display", clip, "--json"]))
        let video = try #require(automatic["video"] as? [String: Any])
        let reasons = video["hardware_unavailable"] as? [String] ?? []
        print("hardware decoding: \(video["hardware"] ?? "software"); unavailable: \(reasons)")
        #expect(automatic["frames"] as? Int == 60 && automatic["decode_errors"] as? Int == 0, "\(automatic)")
        if let device = video["hardware"] as? String {
            #expect(!reasons.contains { $0.hasPrefix(device + ":") })
        } else {
            // Software, and every device type the h264 decoder supports was tried and explained.
            #expect(video.keys.contains("hardware"), "the key is there even for software: \(video)")
            #expect(reasons.contains { $0.hasPrefix("vaapi:") }, "\(reasons)")
            if !renderNode { #expect(reasons.contains("vaapi: no /dev/dri/renderD* render node"), "\(reasons)") }
        }

        let none = try Self.playJSON(try Tools.run(Tools.onairExecutable, ["play", "--no-display", clip, "--json", "--hwaccel", "none"]))
        let noneVideo = none["video"] as? [String: Any] ?? [:]
        #expect(noneVideo["hardware"] is NSNull && (noneVideo["hardware_unavailable"] as? [String])?.isEmpty == true, "\(noneVideo)")
        #expect(none["frames"] as? Int == 60)

        if !renderNode {
            let demanded = try Tools.run(Tools.onairExecutable, ["play", "--no-display", clip, "--hwaccel", "vaapi"])
            #expect(
                demanded.status == 1 && demanded.stderr.contains("hardware decoding unavailable: vaapi: no /dev/dri/renderD* render node"),
                "\(demanded.stderr)")
        }
        let unknown = try Tools.run(Tools.onairExecutable, ["play", "--no-display", clip, "--hwaccel", "bogus"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--hwaccel bogus"), "\(unknown.stderr)")
    }
}
#endif
