#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --sub-size --sub-fps`: a second encode of the same capture at its own size and rate.
@Suite struct ServeSubStreamTests {
    /// One capture feeds both: the source is a FIFO that can be read once, and the frame codes
    /// of the synthetic pattern it carries show in both streams. ffprobe reads each stream's size
    /// and packet times; `onair probe --sync` reads the codes (the sub stream's skip five of every six).
    @Test func subStreamAtItsOwnSizeAndRateFromTheOneCapture() throws {
        let dir = try Tools.temporaryDirectory("substream")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = { (name: String) in dir.appendingPathComponent(name).path }
        // 768x432 → 384x216: the frame code's cells (12 px, then 6) scale with the picture.
        let made = try Tools.run(
            Tools.onairExecutable,
            ["record", "--fast", "--size", "768x432", "--fps", "30", "--duration", "6", "--preset", "ultrafast", "-o", file("source.ts")])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(mkfifo(file("fifo.ts"), 0o600) == 0)
        let feeder = try StreamTestProcess(
            "/bin/sh", ["-c", "cat \"$0\" > \"$1\"", file("source.ts"), file("fifo.ts")], stderrPath: file("cat.log"))
        let server = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "serve", "--video", "file:" + file("fifo.ts"), "--audio", "file:" + file("fifo.ts"), "--listen", "127.0.0.1:0",
                "--rtsp-port", "0", "--size", "768x432", "--fps", "30", "--preset", "ultrafast", "--bitrate", "1500k",
                "--sub-size", "384x216", "--sub-fps", "5",
            ], stderrPath: file("serve.log"))
        defer {
            feeder.kill()
            server.kill()
        }
        let ports = try server.announcedPorts(["serving http://", "RTSP: rtsp://"])
        let (port, rtspPort) = (ports[0], ports[1])
        try #require(waitUntil(timeout: 10) { StreamTestPorts.accepts(port) }, "\(server.stderr)")
        let base = "http://127.0.0.1:\(port)"
        // The copies start once the sub stream's MPEG-TS has begun (its first keyframe after the audio's first packet).
        let started = {
            (try? Tools.run("curl", ["-s", "-o", "/dev/null", "-w", "%{size_download}", "-m", "1", base + "/sub.ts"]))
                .flatMap { Int($0.stdoutText) } ?? 0 > 0
        }
        #expect(waitUntil(timeout: 10, started), "\(server.stderr)")
        let copies = [
            ("sub", try StreamTestProcess("curl", ["-s", "-m", "3", "-o", file("sub.ts"), base + "/sub.ts"], stderrPath: file("c1.log"))),
            (
                "live",
                try StreamTestProcess("curl", ["-s", "-m", "3", "-o", file("live.ts"), base + "/live.ts"], stderrPath: file("c2.log"))
            ),
            (
                "rtsp-sub",
                try StreamTestProcess(
                    "ffmpeg",
                    [
                        "-v", "error", "-nostdin", "-rtsp_transport", "tcp", "-i", "rtsp://127.0.0.1:\(rtspPort)/sub", "-t", "2.5", "-c",
                        "copy",
                        "-y", file("rtsp-sub.ts"),
                    ], stderrPath: file("c3.log"))
            ),
        ]
        for (_, copy) in copies { #expect(copy.wait(timeout: 10)) }
        // The FIFO was read once, to its end: the session stops by itself.
        #expect(server.wait(timeout: 10), "\(server.stderr)")
        for (name, size, interval) in [("sub", (384, 216), 0.2), ("rtsp-sub", (384, 216), 0.2), ("live", (768, 432), 1.0 / 30)] {
            let path = file(name + ".ts")
            let info = try Tools.ffprobeJSON(["-select_streams", "v", "-show_streams", "-show_packets", path])
            let stream = (info["streams"] as? [[String: Any]])?.first
            #expect(stream?["width"] as? Int == size.0 && stream?["height"] as? Int == size.1, "\(name): \(stream ?? [:])")
            let times = ((info["packets"] as? [[String: Any]]) ?? []).compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
                .sorted()
            #expect(times.count >= 8, "\(name): \(times.count) video packets")
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.sorted()
            let median = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
            #expect(abs(median - interval) < interval * 0.1, "\(name): packets \(median) s apart, asked \(interval)")
            let sync =
                try JSONSerialization.jsonObject(with: Tools.run(Tools.onairExecutable, ["probe", "--sync", "--json", path]).stdout)
                as? [String: Any] ?? [:]
            let frames = sync["frames"] as? Int ?? 0, skipped = sync["dropped_frames"] as? Int ?? -1
            #expect(frames >= 8 && sync["repeated_frames"] as? Int == 0, "\(name): \(sync)")
            // The sub stream takes every sixth captured frame (30 → 5 fps), the main one every frame.
            let expectedSkips = name == "live" ? 0 : (frames - 1) * 5
            #expect(abs(skipped - expectedSkips) <= 2, "\(name): \(frames) frame codes, \(skipped) skipped between them")
        }
    }

    /// WHEP of the sub stream at `/sub/whep` (aiortc, two viewers at once): the sub picture at its rate,
    /// while `/live/whep`, the alias of `/whep`, gives the main one; each session ends by its own Location.
    @Test(.enabled(if: ServeWebRTCTests.available)) func whepOfTheSubStreamAndTheLiveAlias() throws {
        let dir = try Tools.temporaryDirectory("substream-whep")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(
            directory: dir, duration: 20, arguments: ["--webrtc", "--sub-size", "160x120", "--sub-fps", "5", "--sub-bitrate", "200k"])
        defer { _ = server.finish(timeout: 0) }
        let results = try [("/sub/whep", "sub"), ("/live/whep", "live")].map { path, name in
            try StreamTestProcess(
                Tools.aiortcPython, [ServeWebRTCTests.client, "--url", server.url(path), "--seconds", "4"],
                stderrPath: dir.appendingPathComponent(name + ".log").path,
                stdoutPath: dir.appendingPathComponent(name + ".json").path)
        }
        for viewer in results { #expect(viewer.wait(timeout: 30)) }
        func summary(_ name: String) -> [String: Any] {
            let text = (try? String(contentsOf: dir.appendingPathComponent(name + ".json"), encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }
        let sub = summary("sub"), live = summary("live")
        #expect(sub["status"] as? Int == 201 && (sub["location"] as? String)?.hasPrefix("/sub/whep/") == true, "\(sub)")
        #expect(sub["size"] as? [Int] == [160, 120] && sub["delete_status"] as? Int == 200, "\(sub)")
        #expect(live["size"] as? [Int] == [320, 240] && live["delete_status"] as? Int == 200, "\(live)")
        // 4 s at 5 fps against 15 fps: the sub stream's frames are about a third of the main one's.
        let subFrames = sub["video_frames"] as? Int ?? 0, liveFrames = live["video_frames"] as? Int ?? 0
        #expect(subFrames >= 8 && subFrames <= 30 && liveFrames >= 2 * subFrames, "sub \(subFrames), live \(liveFrames) frames")
        #expect(sub["decode_errors"] as? Int == 0 && live["decode_errors"] as? Int == 0)
    }
}
#endif
