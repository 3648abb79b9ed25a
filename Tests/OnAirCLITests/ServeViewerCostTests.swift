#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// What a viewer costs `onair serve` (issue 45): no thread per RTSP or HTTP viewer, and a join
/// that Frigate's own recorder takes without complaint.
@Suite struct ServeViewerCostTests {
    /// The threads of process `pid`, from /proc.
    static func threads(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    /// An HTTP viewer of `/live.ts` for `seconds` (curl writing to nothing).
    static func httpViewer(_ server: ServeTestServer, seconds: Int, log: URL) throws -> StreamTestProcess {
        try StreamTestProcess("curl", ["-s", "-o", "/dev/null", "-m", "\(seconds)", server.url("/live.ts")], stderrPath: log.path)
    }

    /// An RTSP viewer over TCP for `seconds` (Tests/Tools/rtsp_clients.py burst: DESCRIBE, SETUP
    /// interleaved, PLAY, then it reads; its JSON says what it got).
    static func rtspViewer(_ port: Int, seconds: Int, out: URL) throws -> StreamTestProcess {
        try StreamTestProcess(
            "python3", [ServeRTSPTests.clients, "burst", "\(port)", "\(seconds)"], stderrPath: out.path + ".log", stdoutPath: out.path)
    }

    @Test func thirtyTwoRTSPAndThirtyTwoHTTPViewersAddNoThreadToServe() throws {
        let dir = try Tools.temporaryDirectory("serve-viewer-threads")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, port) = try ServeRTSPTests.serve(dir, duration: 60, ["--max-viewers", "80"])
        defer { _ = server.stop() }
        let pid = server.process.process.processIdentifier
        let list = { (try? server.statistics()["viewers"] as? [[String: Any]]) ?? [] }
        let viewers = { list().count }
        // Every viewer has been sent its first 50 kB (the keyframe cache and some live media).
        let allSending = { (count: Int) in
            let current = list()
            return current.count == count && current.allSatisfy { ($0["bytes_sent"] as? Int ?? 0) > 50_000 }
        }
        var clients = [
            try Self.rtspViewer(port, seconds: 25, out: dir.appendingPathComponent("rtsp-0.json")),
            try Self.httpViewer(server, seconds: 25, log: dir.appendingPathComponent("http-0.log")),
        ]
        #expect(waitUntil(timeout: 15) { allSending(2) }, "\(list())")
        let one = Self.threads(pid)
        for index in 1..<32 {
            clients.append(try Self.rtspViewer(port, seconds: 20, out: dir.appendingPathComponent("rtsp-\(index).json")))
            clients.append(try Self.httpViewer(server, seconds: 20, log: dir.appendingPathComponent("http-\(index).log")))
        }
        #expect(waitUntil(timeout: 20) { allSending(64) }, "viewers: \(viewers())")
        let many = Self.threads(pid)
        #expect(many - one <= 4, "serve's threads with one RTSP and one HTTP viewer: \(one); with 32 of each: \(many)")
        print("ServeViewerCostTests: serve's threads \(one) with 1 + 1 viewers, \(many) with 32 + 32")
        for client in clients { _ = client.wait(timeout: 40) }
        for index in 0..<32 {
            let report =
                (try? JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("rtsp-\(index).json"))))
                as? [String: Any]
            #expect(report?["play"] as? Int == 200 && (report?["packets"] as? Int ?? 0) > 100, "RTSP viewer \(index): \(report ?? [:])")
        }
    }

    /// Frigate's record command as Frigate 0.14 runs it (its global arguments, the
    /// `preset-rtsp-generic` input and `preset-record-generic-audio-aac` output; `-t 30` added to
    /// end it) joins the stream with monotonic audio: with gst-rtsp-server it logged "Queue input
    /// is backward in time" and "Non-monotonous DTS in output stream 0:1", and with the own
    /// server's keyframe cache sent at once, the first (sound now starts live).
    @Test func frigatesRecorderJoinsWithoutBackwardTimestamps() throws {
        let dir = try Tools.temporaryDirectory("serve-frigate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, port) = try ServeRTSPTests.serve(dir, duration: 60, ["--keyint-duration", "1"])
        defer { _ = server.stop() }
        let segments = dir.appendingPathComponent("segments")
        try FileManager.default.createDirectory(at: segments, withIntermediateDirectories: true)
        let recorder = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "warning", "-threads", "2", "-avoid_negative_ts", "make_zero", "-fflags",
                "+genpts+discardcorrupt", "-rtsp_transport", "tcp", "-timeout", "5000000", "-use_wallclock_as_timestamps", "1",
                "-i", "rtsp://127.0.0.1:\(port)/live", "-t", "30", "-f", "segment", "-segment_time", "10", "-segment_format", "mp4",
                "-reset_timestamps", "1", "-strftime", "1", "-c:v", "copy", "-c:a", "aac",
                segments.appendingPathComponent("cam@%Y%m%d%H%M%S%z.mp4").path,
            ], timeout: 60)
        #expect(recorder.status == 0, "\(recorder.stderr)")
        // Sound that starts live took away the warning the keyframe cache's burst of audio gave
        // every join, but live audio arriving bunched on a busy machine still gives it now and
        // then (a fresh-clone CI run, lane C): still open, recorded as a known issue.
        withKnownIssue("audio arriving bunched under load still reaches Frigate's AAC encoder early", isIntermittent: true) {
            #expect(!recorder.stderr.contains("backward in time"), "\(recorder.stderr)")
        }
        // Still open (issue 45): the first video packet reaches ffmpeg's segment muxer without a
        // timestamp ("Timestamps are unset in a packet for stream 0"), then "Non-monotonous DTS in
        // output stream 0:0; previous: 0, current: 0". Sound no longer goes backward (above).
        withKnownIssue("the first video packet has no timestamp in Frigate's copy", isIntermittent: true) {
            #expect(!recorder.stderr.contains("Non-monotonous DTS"), "\(recorder.stderr)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: segments.path).filter { $0.hasSuffix(".mp4") }
        #expect(files.count >= 3, "\(files)")
        for file in files {
            let probe = try Tools.ffprobeJSON(["-show_entries", "stream=codec_type", segments.appendingPathComponent(file).path])
            let types = (probe["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_type"] as? String }
            #expect(types.contains("video") && types.contains("audio"), "\(file): \(types)")
        }
    }
}
#endif
