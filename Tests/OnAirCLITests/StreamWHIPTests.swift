#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream whip+http://…` publishing into aiortc (PyPI) as an independent WHIP server
/// (Tests/Tools/whip_server.py), all on loopback: aiortc gets no ICE servers and host candidates on
/// 127.0.0.1 only, and onair gathers on 127.0.0.1 for a loopback endpoint. What the server decoded
/// is RTCP-mapped (sender reports) and measured with `onair probe --sync`; the recording beside it
/// with ffprobe/ffmpeg.
@Suite(.serialized) struct StreamWHIPTests {

    /// `onair stream` at 320x240, 15 fps, a keyframe a second, to `url` (and `extra` arguments).
    static func stream(_ url: String, seconds: Int, dir: URL, log: String, extra: [String] = []) throws -> StreamTestProcess {
        try StreamTestProcess(
            Tools.onairExecutable,
            ["stream", "--duration", "\(seconds)", "--size", "320x240", "--fps", "15", "--bitrate", "600k", "--keyint-duration", "1", url]
                + extra,
            stderrPath: dir.appendingPathComponent(log).path)
    }

    @Test(.enabled(if: WHIPTestServer.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func publishesPictureAndSoundInOrderAndInSyncBesideARecordingAndDeletesTheSession() throws {
        let dir = try Tools.temporaryDirectory("stream-whip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try WHIPTestServer(directory: dir, label: "server")
        let recording = dir.appendingPathComponent("rec.mp4").path
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let stream = try Self.stream(server.url, seconds: 10, dir: dir, log: "stream.log", extra: ["-o", recording, "--stats-json", stats])
        #expect(stream.wait(timeout: 60), "onair stream did not stop: \(stream.stderr)")
        #expect(stream.process.terminationStatus == 0, "\(stream.stderr)")
        let summaries = server.stop()
        #expect(summaries.count == 1, "one session: \(server.events)")
        let summary = summaries.first ?? [:]
        #expect(server.events("session").count == 1 && server.events("refused").isEmpty, "\(server.events)")
        // The DELETE came when the stream stopped.
        #expect(summary["deleted"] as? Bool == true, "\(summary)")
        #expect(summary["first_frame_idr"] as? Bool == true, "the session must start on a keyframe: \(summary)")
        #expect(summary["decode_errors"] as? Int == 0, "\(summary)")
        #expect((summary["size"] as? [Int]) == [320, 240], "\(summary)")
        // 10 s at 15 fps: the connection takes a second or two on a loaded machine, then every frame.
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        #expect(recorded.frames >= 120 && recorded.firstIsKey, "recording: \(recorded)")
        #expect(try ServeCommandTests.decodeErrors(recording).isEmpty)
        let frames = summary["video_frames"] as? Int ?? 0
        #expect(frames >= recorded.frames - 15 * 4, "\(frames) frames decoded by the server, \(recorded.frames) recorded: \(summary)")
        // Opus, 50 packets a second, from the same capture.
        #expect((summary["audio_frames"] as? Int ?? 0) >= 50 * 5, "\(summary)")
        let reports = summary["sender_reports"] as? [String: Int] ?? [:]
        #expect((reports["video"] ?? 0) > 0 && (reports["audio"] ?? 0) > 0, "no sender reports for lip sync: \(summary)")

        // The server's picture and sound as a player would play them (RTCP-mapped), by onair probe --sync.
        let sync = try RecordCommandTests.syncReport(dir.appendingPathComponent("server/session-0.nut").path)
        #expect((sync["flashes"] as? Int ?? 0) >= 5, "\(sync)")
        #expect((sync["beeps"] as? Int ?? 0) >= 5, "\(sync)")
        #expect(sync["repeated_frames"] as? Int == 0, "frame codes out of order or repeated: \(sync)")
        let last = try RecordCommandTests.finalStatistics(stats)
        let upstream = (last["dropped_frames"] as? Int ?? 0) + (last["source_skipped_frames"] as? Int ?? 0)
        #expect((sync["dropped_frames"] as? Int ?? 99) <= upstream + 2, "\(sync); dropped before the output: \(upstream)")
        // Within a frame at 15 fps (sender reports map capture time on both streams).
        let offset = sync["max_av_offset_ms"] as? Double
        #expect(offset != nil && offset! <= 66.7, "A/V: \(sync)")
    }

    @Test(.enabled(if: WHIPTestServer.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func aServerRestartedMidStreamGetsANewSessionThatStartsOnAKeyframeAndTheRecordingCarriesOn() throws {
        let dir = try Tools.temporaryDirectory("stream-whip-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try WHIPTestServer(directory: dir, label: "first")
        let recording = dir.appendingPathComponent("rec.mp4").path
        let stream = try Self.stream(first.url, seconds: 24, dir: dir, log: "stream.log", extra: ["-o", recording])
        #expect(waitUntil(timeout: 30) { !first.events("session").isEmpty }, "no session: \(stream.stderr)")
        letTimePass(5, "five seconds streamed to the first server")
        let before = first.stop().first ?? [:]
        #expect((before["video_frames"] as? Int ?? 0) >= 30 && before["first_frame_idr"] as? Bool == true, "\(before)")
        // The same endpoint comes back: onair notices the silence (no RTCP for 3 s) and publishes again.
        let second = try WHIPTestServer(directory: dir, label: "second", port: first.port)
        #expect(stream.wait(timeout: 60), "onair stream did not stop: \(stream.stderr)")
        #expect(stream.process.terminationStatus == 0, "\(stream.stderr)")
        let after = second.stop()
        #expect(!after.isEmpty, "no session on the restarted server: \(stream.stderr)")
        let resumed = after.last ?? [:]
        #expect(resumed["first_frame_idr"] as? Bool == true, "the new session must start on a keyframe: \(resumed)")
        #expect(resumed["decode_errors"] as? Int == 0, "\(resumed)")
        #expect((resumed["video_frames"] as? Int ?? 0) >= 45, "at least 3 s of the new session: \(resumed); \(stream.stderr)")
        #expect(resumed["deleted"] as? Bool == true, "\(resumed)")
        #expect(stream.stderr.contains("connection lost") && stream.stderr.contains("reconnected"), "\(stream.stderr)")
        // The recording took every frame through it all.
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        #expect(recorded.frames >= 300 && recorded.largestGap <= 0.5, "recording: \(recorded)")
    }

    @Test(.enabled(if: WHIPTestServer.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func aRefusedOrMissingTokenIsAClearErrorAndTheRecordingCarriesOn() throws {
        let dir = try Tools.temporaryDirectory("stream-whip-token")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try WHIPTestServer(directory: dir, label: "server", token: "right-token")
        let recording = dir.appendingPathComponent("rec.mp4").path
        let wrong = try Self.stream(server.url, seconds: 5, dir: dir, log: "wrong.log", extra: ["--token", "wrong-token", "-o", recording])
        #expect(wrong.wait(timeout: 40), "onair stream did not stop: \(wrong.stderr)")
        #expect(wrong.process.terminationStatus == 1, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("answered 403 Forbidden") && wrong.stderr.contains("--token"), "\(wrong.stderr)")
        // The recording ran to the end of the duration regardless.
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        #expect(recorded.frames >= 60 && recorded.largestGap <= 0.5, "recording: \(recorded)")
        let missing = try Self.stream(server.url, seconds: 3, dir: dir, log: "missing.log")
        #expect(missing.wait(timeout: 40), "onair stream did not stop: \(missing.stderr)")
        #expect(missing.process.terminationStatus == 1 && missing.stderr.contains("answered 401 Unauthorized"), "\(missing.stderr)")
        server.stop()
        #expect(server.events("session").isEmpty, "no session without the right token: \(server.events)")
        #expect(server.events("refused").compactMap { $0["status"] as? Int }.sorted() == [401, 403], "\(server.events)")
    }
    @Test(.enabled(if: WHIPTestServer.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func aPictureLossIndicationFromTheServerGetsAKeyframeAtOnce() throws {
        let dir = try Tools.temporaryDirectory("stream-whip-pli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try WHIPTestServer(directory: dir, label: "server", pliAfter: 3)
        // Keyframes 20 s apart: only the connection's own and the one the PLI asks for fall in the run.
        let stream = try StreamTestProcess(
            Tools.onairExecutable,
            ["stream", "--duration", "9", "--size", "320x240", "--fps", "15", "--keyint-duration", "20", server.url],
            stderrPath: dir.appendingPathComponent("stream.log").path)
        #expect(stream.wait(timeout: 60), "onair stream did not stop: \(stream.stderr)")
        let summary = server.stop().first ?? [:]
        #expect(server.events("pli").count == 1, "\(server.events)")
        #expect(summary["first_frame_idr"] as? Bool == true, "\(summary)")
        // The request reaches the encoder through webrtcbin (an upstream force-key-unit event) and the
        // IDR comes back within a frame or two plus the loopback round trip; a second allows for load.
        let delay = summary["idr_after_pli_seconds"] as? Double
        #expect(delay != nil && delay! <= 1.0, "no keyframe soon after the PLI: \(summary); \(stream.stderr)")
    }
}
#endif
