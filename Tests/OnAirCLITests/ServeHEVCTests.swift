#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --codec h265 --sub-codec h264`: every face of one short serve at once, each read by
/// a player of its own — ffmpeg copying `/live.ts`, `/live.mp4`, HLS (fMP4), RTSP over UDP and TCP
/// and an SRT caller; GStreamer's `rtspsrc ! rtph265depay ! h265parse ! avdec_h265`; curl for
/// `/sub.ts`, the snapshot, the multivariant playlist, `/list` and `/get`; aiortc as WHEP viewer
/// (H.264 only: it gets the sub stream). ffprobe reads hevc Main at 640x360 (the MP4s tagged
/// `hvc1`), and everything decodes without an error. 640x360 at 15 fps with ultrafast, and the sub
/// at 320x180, 5 fps: what two shared cores keep in real time beside the players.
@Suite struct ServeHEVCTests {
    @Test func everyFaceCarriesH265AndTheSubStreamStaysH264() throws {
        let dir = try Tools.temporaryDirectory("serve-hevc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = { (name: String) in dir.appendingPathComponent(name).path }
        let server = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "serve", "--listen", "127.0.0.1:0", "--rtsp-port", "0", "--srt-port", "0", "--webrtc",
                "--codec", "h265", "--size", "640x360", "--fps", "15", "--bitrate", "800k", "--preset", "ultrafast",
                "--keyint-duration", "1", "--sub-size", "320x180", "--sub-codec", "h264", "--duration", "16",
                "--record-path", file("rec") + "/%path/%Y-%m-%d_%H-%M-%S-%f", "--record-segment-duration", "2s",
            ], stderrPath: file("serve.log"))
        defer { server.kill() }
        let ports = try server.announcedPorts(["serving http://", "RTSP: rtsp://", "SRT callers: srt://"])
        let (port, rtspPort, srtPort) = (ports[0], ports[1], ports[2])
        let base = "http://127.0.0.1:\(port)"
        try #require(waitUntil(timeout: 10) { StreamTestPorts.accepts(port) && StreamTestPorts.accepts(rtspPort) }, "\(server.stderr)")
        // The clients start once the HLS playlist lists a segment (the encode is past its second keyframe).
        #expect(
            waitUntil(timeout: 10) {
                ((try? Tools.run("curl", ["-s", "-m", "1", base + "/live.m3u8"]))?.stdoutText ?? "").contains("segment_")
            }, "\(server.stderr)")
        let rtsp = "rtsp://127.0.0.1:\(rtspPort)/live"
        let ffmpegCopy = { (input: [String], output: String) in
            try StreamTestProcess(
                "ffmpeg", ["-v", "error", "-nostdin"] + input + ["-t", "4", "-c", "copy", "-y", file(output)],
                stderrPath: file(output + ".log"))
        }
        var clients = [
            (
                "live.ts",
                try StreamTestProcess("curl", ["-s", "-m", "4", "-o", file("live.ts"), base + "/live.ts"], stderrPath: file("c1.log"))
            ),
            (
                "live.mp4",
                try StreamTestProcess("curl", ["-s", "-m", "4", "-o", file("live.mp4"), base + "/live.mp4"], stderrPath: file("c2.log"))
            ),
            (
                "sub.ts",
                try StreamTestProcess("curl", ["-s", "-m", "4", "-o", file("sub.ts"), base + "/sub.ts"], stderrPath: file("c3.log"))
            ),
            ("hls.mp4", try ffmpegCopy(["-i", base + "/live.m3u8"], "hls.mp4")),
            ("rtsp-tcp.mkv", try ffmpegCopy(["-rtsp_transport", "tcp", "-i", rtsp], "rtsp-tcp.mkv")),
            ("rtsp-udp.mkv", try ffmpegCopy(["-rtsp_transport", "udp", "-i", rtsp], "rtsp-udp.mkv")),
            ("srt.ts", try ffmpegCopy(["-i", "srt://127.0.0.1:\(srtPort)?mode=caller"], "srt.ts")),
            (
                // The depayloaded access units go to a file too (an elementary stream: no container's
                // time rounding in the way), for ffprobe and ffmpeg.
                "gst.h265",
                try StreamTestProcess(
                    "timeout",
                    [
                        "-s", "INT", "5", "gst-launch-1.0", "-e", "rtspsrc", "location=\(rtsp)", "latency=200", "!", "rtph265depay",
                        "!", "h265parse", "!", "video/x-h265,stream-format=byte-stream,alignment=au", "!", "tee", "name=t", "!", "queue",
                        "!", "avdec_h265", "!", "fakesink", "t.", "!", "queue", "!", "filesink", "location=\(file("gst.h265"))",
                    ], stderrPath: file("gst.log"), stdoutPath: file("gst.out"))
            ),
            (
                // Frigate's record command with its Apple compatibility option: RTSP copied into MP4
                // segments tagged hvc1.
                "frigate",
                try StreamTestProcess(
                    "ffmpeg",
                    [
                        "-v", "error", "-nostdin", "-rtsp_transport", "tcp", "-i", rtsp, "-t", "4", "-f", "segment",
                        "-segment_time", "1", "-segment_format", "mp4", "-reset_timestamps", "1", "-c:v", "copy", "-tag:v", "hvc1",
                        "-c:a", "aac", "-y", file("frigate-%03d.mp4"),
                    ], stderrPath: file("frigate.log"))
            ),
            (
                "play",
                try StreamTestProcess(
                    Tools.onairExecutable, ["play", base + "/live.ts", "--no-display", "--no-audio", "--json", "--duration", "4"],
                    stderrPath: file("play.log"), stdoutPath: file("play.json"))
            ),
        ]
        if ServeWebRTCTests.available {
            clients.append(
                (
                    "whep",
                    try StreamTestProcess(
                        Tools.aiortcPython, [ServeWebRTCTests.client, "--url", base + "/whep", "--seconds", "3"],
                        stderrPath: file("whep.log"), stdoutPath: file("whep.json"))
                ))
        }
        // Meanwhile: the snapshot (a decoded H.265 keyframe) and the multivariant playlist.
        let snapshot = try Tools.run("curl", ["-s", "-m", "5", "-o", file("snapshot.jpg"), "-w", "%{http_code}", base + "/snapshot.jpg"])
        #expect(snapshot.stdoutText == "200")
        let index = try Tools.run("curl", ["-s", "-m", "5", base + "/index.m3u8"]).stdoutText
        #expect(index.contains("CODECS=\"hvc1.1.6.L") && index.contains("RESOLUTION=640x360") && index.contains("live.m3u8"), "\(index)")
        #expect(index.contains("CODECS=\"avc1.") && index.contains("RESOLUTION=320x180") && index.contains("sub.m3u8"), "\(index)")
        for (name, client) in clients { #expect(client.wait(timeout: 20), "\(name)") }

        // Recording: /list gives a segment, /get an H.265 MP4 of it.
        let list = try Tools.run("curl", ["-s", "-m", "5", base + "/list?path=live"]).stdout
        let entries = (try? JSONSerialization.jsonObject(with: list) as? [[String: Any]]) ?? []
        let url = try #require(entries.first?["url"] as? String, "\(String(decoding: list, as: UTF8.self))")
        let got = try Tools.run("curl", ["-s", "-m", "10", "-o", file("get.mp4"), "-w", "%{http_code}", url])
        #expect(got.stdoutText == "200")
        #expect(server.wait(timeout: 20), "\(server.stderr)")

        for name in ["live.ts", "live.mp4", "hls.mp4", "rtsp-tcp.mkv", "rtsp-udp.mkv", "srt.ts", "gst.h265", "get.mp4"] {
            let info = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", "-count_packets", file(name)])
            let stream = (info["streams"] as? [[String: Any]])?.first ?? [:]
            #expect(stream["codec_name"] as? String == "hevc" && stream["profile"] as? String == "Main", "\(name): \(stream)")
            #expect(stream["width"] as? Int == 640 && stream["height"] as? Int == 360, "\(name): \(stream)")
            #expect(Int(stream["nb_read_packets"] as? String ?? "") ?? 0 >= 15, "\(name): \(stream)")
            if name.hasSuffix(".mp4") { #expect(stream["codec_tag_string"] as? String == "hvc1", "\(name): \(stream)") }
            #expect(try RecordCommandTests.decodesCleanly(file(name)).isEmpty, "\(name)")
        }
        let segments = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("frigate-") }.sorted()
        #expect(segments.count >= 3, "\(segments)")
        for segment in segments {
            let info = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", file(segment)])
            let stream = (info["streams"] as? [[String: Any]])?.first ?? [:]
            #expect(stream["codec_name"] as? String == "hevc" && stream["codec_tag_string"] as? String == "hvc1", "\(segment): \(stream)")
            #expect(try RecordCommandTests.decodesCleanly(file(segment)).isEmpty, "\(segment)")
        }
        let played =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file("play.json")))) as? [String: Any]) ?? [:]
        #expect((played["video"] as? [String: Any])?["codec"] as? String == "hevc", "onair play: \(played)")
        #expect(played["decode_errors"] as? Int == 0 && (played["frames"] as? Int ?? 0) >= 40, "onair play: \(played)")
        let output = (try? String(contentsOfFile: file("gst.out"), encoding: .utf8)) ?? ""
        let gstErrors = ServeRTSPTests.decodeErrors(
            output: output, errors: (try? String(contentsOfFile: file("gst.log"), encoding: .utf8)) ?? "")
        #expect(gstErrors.isEmpty, "\(gstErrors)")
        let sub = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", file("sub.ts")])
        let subStream = (sub["streams"] as? [[String: Any]])?.first ?? [:]
        #expect(subStream["codec_name"] as? String == "h264" && subStream["width"] as? Int == 320, "\(subStream)")
        #expect(try RecordCommandTests.decodesCleanly(file("sub.ts")).isEmpty)
        let image = try Tools.ffprobeJSON(["-show_streams", file("snapshot.jpg")])
        let picture = (image["streams"] as? [[String: Any]])?.first ?? [:]
        #expect(picture["codec_name"] as? String == "mjpeg" && picture["width"] as? Int == 640, "\(picture)")
        if ServeWebRTCTests.available {
            let text = (try? String(contentsOfFile: file("whep.json"), encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").last.map(String.init) ?? ""
            let whep = (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
            #expect(whep["status"] as? Int == 201 && (whep["location"] as? String)?.hasPrefix("/sub/whep/") == true, "\(whep)")
            #expect(whep["size"] as? [Int] == [320, 180] && whep["decode_errors"] as? Int == 0, "\(whep)")
        }
    }
}
#endif
