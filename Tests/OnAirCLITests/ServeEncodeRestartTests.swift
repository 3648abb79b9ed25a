#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// SIGHUP with a new picture size (issue 33): the server (same process) restarts its encode, and
/// every viewer whose protocol can keep its connection goes on over it from the new encoder's
/// keyframe, the parameter sets in band: an ffmpeg copy of `/live.ts`, an SRT caller and an RTSP
/// client (ffmpeg, interleaved TCP), and an aiortc WHEP viewer (Tests/Tools/whep_client.py, when
/// aiortc and webrtcbin are there), all at once against one server. Each has pictures of both sizes,
/// old before new, and decodes without an error; the server counts each viewer once (no reconnect).
/// An ffmpeg reader of `/live.m3u8` goes across the change too, and the playlist has
/// `#EXT-X-DISCONTINUITY` before the first segment of the new encode.
@Suite(.serialized) struct ServeEncodeRestartTests {
    /// Each video frame's `WIDTH,HEIGHT` in `file`, as ffprobe decodes it.
    static func frameSizes(_ file: String) throws -> [String] {
        let frames = try Tools.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height", "-of", "csv=p=0", file])
        // A frame with side data gets a trailing field: width and height are the first two.
        return frames.stdoutText.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
    }

    @Test func aNewSizeRestartsTheEncodeAndEveryViewerGoesOnOverItsConnection() throws {
        let dir = try Tools.temporaryDirectory("serve-encode-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("onair.yml")
        let webRTC = ServeWebRTCTests.available
        let common =
            "listen: 127.0.0.1:0\nrtsp-port: 0\nsrt-port: 0\nwebrtc: \(webRTC)\nhls-time: 1\n"
            + "fps: 15\nkeyint-duration: 1\npreset: ultrafast\nbitrate: 400k\n"

        try "size: 320x240\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        let server = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "serve", "--config", file.path, "--duration", "18",
                "--record-path", dir.path + "/recording/%path/%Y-%m-%d_%H-%M-%S-%f",
            ],
            stderrPath: dir.appendingPathComponent("serve.log").path)
        defer { server.kill() }
        let ports = try server.announcedPorts(["serving http://", "RTSP: rtsp://", "SRT callers: srt://"])
        let (port, rtspPort, srtPort) = (ports[0], ports[1], ports[2])
        func statistics() -> [String: Any] {
            let reply = try? Tools.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(port)/stats.json"])
            return reply.flatMap { try? JSONSerialization.jsonObject(with: $0.stdout) as? [String: Any] } ?? [:]
        }
        func metrics() -> String {
            (try? Tools.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(port)/metrics"]).stdoutText) ?? ""
        }
        func width() -> Int? { (statistics()["encoder"] as? [String: Any])?["video_width"] as? Int }
        #expect(waitUntil(timeout: 10) { width() == 320 }, "\(server.stderr)")

        let sources = [
            ("ts", ["-i", "http://127.0.0.1:\(port)/live.ts"]),
            ("srt", ["-i", "srt://127.0.0.1:\(srtPort)?mode=caller"]),
            ("rtsp", ["-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(rtspPort)/live"]),
            ("hls", ["-i", "http://127.0.0.1:\(port)/live.m3u8"]),
        ]
        let viewers = try sources.map { name, input in
            try StreamTestProcess(
                "ffmpeg",
                ["-hide_banner", "-nostdin", "-v", "error"] + input
                    + ["-c", "copy", "-f", "mpegts", "-flush_packets", "1", "-y", dir.appendingPathComponent("\(name).ts").path],
                stderrPath: dir.appendingPathComponent("\(name).log").path)
        }
        defer { for viewer in viewers { viewer.kill() } }
        let whepOut = dir.appendingPathComponent("whep.json").path
        let whep =
            try webRTC
            ? StreamTestProcess(
                Tools.aiortcPython, [ServeWebRTCTests.client, "--url", "http://127.0.0.1:\(port)/whep", "--seconds", "9"],
                stderrPath: dir.appendingPathComponent("whep.log").path, stdoutPath: whepOut) : nil
        defer { whep?.kill() }
        func size(_ name: String) -> Int {
            (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("\(name).ts").path)[.size] as? Int) ?? 0
        }
        func webRTCViewers() -> Int { (statistics()["webrtc_viewers"] as? [Any])?.count ?? 0 }
        let playing = waitUntil(timeout: 8) {
            sources.allSatisfy { size($0.0) > 30_000 } && (!webRTC || webRTCViewers() == 1)
        }
        #expect(playing, "\(sources.map { "\($0.0): \(size($0.0))" }) \(viewers.map(\.stderr))")

        let metricsBefore = metrics()
        try "size: 480x270\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(
            waitUntil(timeout: 5) { server.stderr.contains("reload: restarted the encode for: size 320x240 → 480x270") },
            "\(server.stderr)")
        #expect(waitUntil(timeout: 5) { width() == 480 }, "\(server.stderr)")
        let atChange = Dictionary(uniqueKeysWithValues: sources.map { ($0.0, size($0.0)) })
        #expect(
            waitUntil(timeout: 6) { sources.allSatisfy { size($0.0) > atChange[$0.0]! + 60_000 } },
            "\(sources.map { "\($0.0): \(atChange[$0.0]!) → \(size($0.0))" })")
        // Counters never go down across the reload; the restart forced a keyframe; the recording grew.
        let metricsAfter = metrics()
        let counters = metricsBefore.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.contains("_total") }
        #expect(counters.count >= 10, "\(metricsBefore)")
        for line in counters {
            let name = String(line.prefix { $0 != " " })
            let (old, new) = (
                ServeMetricsHealthTests.sample(metricsBefore, name) ?? 0, ServeMetricsHealthTests.sample(metricsAfter, name) ?? -1
            )
            #expect(new >= old, "\(name) went from \(old) to \(new)")
        }
        func sample(_ text: String, _ name: String) -> Double { ServeMetricsHealthTests.sample(text, name) ?? -1 }
        #expect(
            sample(metricsAfter, "onair_encoder_keyframes_forced_total") >= sample(metricsBefore, "onair_encoder_keyframes_forced_total")
                + 1,
            "\(metricsAfter)")
        #expect(
            sample(metricsAfter, "onair_recording_bytes_written_total") > sample(metricsBefore, "onair_recording_bytes_written_total"),
            "\(metricsAfter)")
        #expect(sample(metricsAfter, "onair_recording_segments_deleted_total") == 0, "\(metricsAfter)")
        if let promtool = ServeMetricsHealthTests.promtool {
            let checked = try Tools.run(promtool, ["check", "metrics"], stdin: Data(metricsAfter.utf8))
            #expect(checked.status == 0 && checked.stdoutText.isEmpty && checked.stderr.isEmpty, "\(checked.stdoutText)\(checked.stderr)")
        }
        var playlist = ""
        let tagged = waitUntil(timeout: 5) {
            playlist = (try? Tools.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(port)/live.m3u8"]).stdoutText) ?? ""
            return playlist.contains("#EXT-X-DISCONTINUITY\n")
        }
        #expect(tagged, "\(playlist)")
        // The tagged segment is all of the new encode.
        let lines = playlist.split(separator: "\n").map(String.init)
        if let tag = lines.firstIndex(of: "#EXT-X-DISCONTINUITY"), let name = lines[tag...].first(where: { !$0.hasPrefix("#") }) {
            let segment = dir.appendingPathComponent("tagged.ts").path
            _ = try Tools.run("curl", ["-s", "-m", "5", "-o", segment, "http://127.0.0.1:\(port)/\(name)"])
            let sizes = Set(try Self.frameSizes(segment))
            #expect(sizes == ["480,270"], "\(name): \(sizes)")
        }
        let document = statistics()
        let totals = document["totals"] as? [String: Any] ?? [:]
        // /live.ts, SRT and RTSP are the hub's viewers: each admitted once, all still on.
        #expect(totals["served"] as? Int == 3 && totals["viewers"] as? Int == 3, "\(totals)")
        if webRTC { #expect((document["webrtc_viewers"] as? [Any])?.count == 1, "\(document["webrtc_viewers"] ?? "none")") }
        #expect(server.process.isRunning, "the server process ended")
        for viewer in viewers { viewer.kill() }

        for (name, _) in sources {
            let received = dir.appendingPathComponent("\(name).ts").path
            let sizes = try Self.frameSizes(received)
            #expect(sizes.contains("320,240") && sizes.contains("480,270"), "\(name): \(Set(sizes))")
            #expect(sizes.firstIndex(of: "480,270") ?? 0 > sizes.lastIndex(of: "320,240") ?? .max, "\(name): the sizes interleave")
            let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", received, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "\(name): \(decode.stderr)")
        }
        if let whep {
            #expect(whep.wait(timeout: 10), "the WHEP viewer did not end")
            let line = (try? String(contentsOfFile: whepOut, encoding: .utf8))?.split(separator: "\n").last.map(String.init) ?? ""
            let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
            let runs = (summary["sizes"] as? [[Int]] ?? []).map { $0.prefix(2).map(String.init).joined(separator: "x") }
            #expect(summary["status"] as? Int == 201, "\(summary) \(whep.stderr)")
            #expect(runs == ["320x240", "480x270"], "\(summary)")
            #expect(((summary["sizes"] as? [[Int]])?.last?[2] ?? 0) >= 15, "\(summary)")
            #expect(summary["decode_errors"] as? Int == 0, "\(summary)")
        }
    }
}
#endif
