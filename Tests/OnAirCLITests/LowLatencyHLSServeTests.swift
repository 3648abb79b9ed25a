#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --hls-variant`: a specification client of our own (Tests/Tools/llhls_client.py,
/// its playlists also read by PyPI's m3u8) follows the Low-Latency playlist at the live edge —
/// blocking reloads held until the part is published, the preload hint's part requested before it
/// exists, parts byte-identical to their finished segment, a delta update that merges into the
/// full playlist, 400 far ahead, the token on every URI, rendition reports, cache headers —, an
/// encode restarted by SIGHUP gives a discontinuity and a new `EXT-X-MAP`, and
/// players that know no LL-HLS (ffmpeg, GStreamer's hlsdemux2) play `/live.m3u8` of every variant.
@Suite struct LowLatencyHLSServeTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/llhls_client.py").path

    /// Whether the test interpreter has PyPI's m3u8 (scripts/setup.sh installs it).
    static var available: Bool { (try? Tools.run(Tools.aiortcPython, ["-c", "import m3u8"]).status) == 0 }

    @Test(.enabled(if: available)) func theSpecificationClientFollowsTheLiveEdge() throws {
        let dir = try Tools.temporaryDirectory("llhls-client")
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = "s3cret+1"
        let query = "?token=s3cret%2B1"
        let server = try ServeTestServer(
            directory: dir, duration: 60,
            arguments: [
                "--hls-variant", "lowlatency", "--hls-time", "1", "--hls-part-duration", "0.2", "--sub-size", "160x120", "--token", token,
            ])
        defer { server.process.kill() }
        // Delta updates skip what is older than six target durations: the client starts once
        // eight segments are listed.
        #expect(
            waitUntil(timeout: 40) {
                String(decoding: (try? server.get("/live.m3u8" + query).body) ?? Data(), as: UTF8.self).contains("segment_8.m4s")
            }, "\(server.process.stderr)")
        let run = try Tools.run(
            Tools.aiortcPython, [Self.client, "--url", server.url("/"), "--token", token, "--seconds", "4"], timeout: 120)
        let line = run.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(run.stderr)")
        #expect(run.status == 0 && (summary["failures"] as? [String])?.isEmpty == true, "\(summary) \(run.stderr)")
        #expect((summary["identical_segments"] as? Int ?? 0) >= 1, "\(summary)")
        #expect((summary["skipped"] as? Int ?? 0) >= 1 && summary["far_ahead"] as? Int == 400, "\(summary)")
        #expect(summary["without_token"] as? Int == 401, "\(summary)")
        #expect(summary["reports"] as? [String] == ["sub.m3u8" + query], "\(summary)")
        #expect(summary["playlist_cache"] as? String == "no-store", "\(summary)")
        #expect((summary["part_cache"] as? String)?.contains("immutable") == true, "\(summary)")
        #expect((summary["blocking_cache"] as? String)?.hasPrefix("public, max-age=") == true, "\(summary)")
        // Held, not polled: most blocking reloads waited for their part; the hinted parts came with them.
        let holds = summary["holds"] as? [Double] ?? []
        #expect(holds.count >= 5 && holds.filter { $0 > 0.05 }.count * 2 >= holds.count, "\(holds)")
        #expect((summary["hint_after_playlist"] as? [Double] ?? []).count >= 4, "\(summary)")
        // The sub stream's playlist reports the main one and names its files under its folder.
        let sub = String(decoding: try server.get("/sub.m3u8" + query).body, as: UTF8.self)
        #expect(sub.contains("#EXT-X-RENDITION-REPORT:URI=\"live.m3u8\(query)\"") && sub.contains("URI=\"sub/part_"), "\(sub)")
        let index = String(decoding: try server.get("/index.m3u8" + query).body, as: UTF8.self)
        #expect(index.components(separatedBy: "CODECS=\"avc1.").count == 3, "\(index)")
    }

    @Test func anEncodeRestartIsADiscontinuityWithANewMap() throws {
        let dir = try Tools.temporaryDirectory("llhls-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("onair.yml")
        let common = "listen: 127.0.0.1:0\nhls-variant: lowlatency\nhls-time: 1\nfps: 15\npreset: ultrafast\nbitrate: 400k\n"
        try "size: 320x240\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        let server = try StreamTestProcess(
            Tools.onairExecutable, ["serve", "--config", file.path, "--duration", "25"],
            stderrPath: dir.appendingPathComponent("serve.log").path)
        defer { server.kill() }
        let port = try server.announcedPort("serving http://")
        let base = "http://127.0.0.1:\(port)/"
        let fetch = { (path: String) in (try? Tools.run("curl", ["-s", "-m", "5", base + path]).stdout) ?? Data() }
        let playlist = { String(decoding: fetch("live.m3u8"), as: UTF8.self) }
        #expect(waitUntil(timeout: 20) { playlist().contains("segment_2.m4s") }, "\(server.stderr)")
        try "size: 480x270\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        let marker = "#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI=\"init_1.mp4\"\n"
        #expect(waitUntil(timeout: 15) { playlist().contains(marker) }, "\(playlist()) \(server.stderr)")
        // The first part after it, behind the new init section, is a 480x270 keyframe.
        let text = playlist()
        let after = text.components(separatedBy: marker).last ?? ""
        let part = try #require(after.split(separator: "\n").first { $0.hasPrefix("#EXT-X-PART:") }, "\(text)")
        #expect(part.hasSuffix(",INDEPENDENT=YES"), "\(part)")
        let uri = String(part.split(separator: "\"")[1])
        let joined = dir.appendingPathComponent("restart.mp4")
        try (fetch("init_1.mp4") + fetch(uri)).write(to: joined)
        let probe = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", joined.path])
        let stream = (probe["streams"] as? [[String: Any]])?.first ?? [:]
        #expect(stream["width"] as? Int == 480 && stream["height"] as? Int == 270, "\(stream)")
    }

    @Test(arguments: ["mpegts", "fmp4", "lowlatency"]) func classicPlayersPlayEveryVariant(variant: String) throws {
        let dir = try Tools.temporaryDirectory("llhls-players")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = { (name: String) in dir.appendingPathComponent(name).path }
        let server = try ServeTestServer(directory: dir, duration: 30, arguments: ["--hls-variant", variant, "--hls-time", "1"])
        defer { server.process.kill() }
        #expect(
            waitUntil(timeout: 20) {
                String(decoding: (try? server.get("/live.m3u8").body) ?? Data(), as: UTF8.self).contains("segment_2.")
            },
            "\(server.process.stderr)")
        let url = server.url("/live.m3u8")
        let ffmpeg = try StreamTestProcess(
            "ffmpeg", ["-v", "error", "-nostdin", "-i", url, "-t", "5", "-c", "copy", "-y", file("copy.mkv")],
            stderrPath: file("ffmpeg.log"))
        // playbin3 picks hlsdemux2 (its rank is above hlsdemux's) and decodes; each sink stops after 30 buffers.
        let gstreamer = try StreamTestProcess(
            "timeout",
            [
                "-s", "INT", "20", "gst-launch-1.0", "-v", "playbin3", "uri=\(url)", "video-sink=fakesink silent=false num-buffers=30",
                "audio-sink=fakesink num-buffers=30",
            ], stderrPath: file("gst.log"), stdoutPath: file("gst.out"))
        #expect(ffmpeg.wait(timeout: 30) && gstreamer.wait(timeout: 30))
        #expect(try RecordCommandTests.decodesCleanly(file("copy.mkv")).isEmpty, "\(variant)")
        let probe = try Tools.ffprobeJSON(["-show_streams", "-count_packets", file("copy.mkv")])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        #expect(streams.map { $0["codec_name"] as? String } == ["h264", "aac"], "\(variant): \(streams)")
        #expect(Int(streams.first?["nb_read_packets"] as? String ?? "") ?? 0 >= 30, "\(variant): \(streams)")
        // A/V in sync in what the player received: the flashes and beeps of the synthetic source line up.
        let sync = try RecordCommandTests.syncReport(file("copy.mkv"))
        #expect((sync["flashes"] as? Int ?? 0) >= 2, "\(variant): \(sync.filter { $0.key != "offsets" })")
        #expect((sync["max_av_offset_ms"] as? Double ?? 999) <= 1000.0 / 15, "\(variant): \(sync.filter { $0.key != "offsets" })")
        let output = (try? String(contentsOfFile: file("gst.out"), encoding: .utf8)) ?? ""
        let errors = ServeRTSPTests.decodeErrors(
            output: output, errors: (try? String(contentsOfFile: file("gst.log"), encoding: .utf8)) ?? "")
        #expect(errors.isEmpty, "\(variant): \(errors)")
        #expect(output.contains("GstHLSDemux2"), "\(variant): \(output.suffix(2000))")
        #expect(output.components(separatedBy: "chain").count > 30, "\(variant): GStreamer decoded too little: \(output.suffix(2000))")
    }
}
#endif
