#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The browser preview page (`PreviewPage`) in real headless Chromium: it plays the live
/// fragmented MP4 at the stream's rate, shows the video and the plots, and plays again by itself
/// after the server is stopped and started on the same port.
@Suite(.serialized) struct BrowserPreviewTests {
    /// A number at `path` (keys, outermost first) in a JSON object, or nil.
    static func number(_ json: [String: Any], _ path: String...) -> Double? {
        var object: Any? = json
        for key in path { object = (object as? [String: Any])?[key] }
        return (object as? NSNumber)?.doubleValue
    }

    @Test func pageIsSelfContainedAndKeepsTheToken() {
        let page = PreviewPage.html(formats: ["live.ts", "live.mp4"], srtPort: 9000, query: "?token=a<b")
        #expect(page.hasPrefix("<!doctype html>"))
        for outside in ["http://", "https://", "src=\"//", "<script src", "<link rel=\"stylesheet\"", "@import"] {
            #expect(!page.contains(outside), "the page must not load \(outside)…")
        }
        // The page's own requests carry the token as a header, not in their URLs.
        #expect(page.contains("new OnAirPlayer(video, '/live.mp4', setStatus, authorization)"))
        #expect(page.contains("fetch('/stats.json', { cache: 'no-store', signal: controller.signal, headers: authorization })"))
        #expect(page.contains("Source.isTypeSupported"))
        #expect(page.components(separatedBy: "</script>").count == 2, "one inline script only")
        #expect(page.contains("href=\"/live.ts?token=a&lt;b\"") && !page.contains("data-path=\"/live.m3u8\""))
        #expect(page.contains("data-srt-port=\"9000\""))
    }

    /// `onair serve` with the synthetic sources (video and audio), a token, 320x240 at 30 fps.
    static func serveCommand(port: String, token: String) -> [String] {
        [
            Tools.onairExecutable, "serve", "--listen", "127.0.0.1:\(port)", "--token", token,
            "--size", "320x240", "--fps", "30", "--bitrate", "600k", "--preset", "ultrafast",
        ]
    }

    @Test(.enabled(if: PreviewBrowserDriver.missing == nil, "\(PreviewBrowserDriver.missing ?? "")"))
    func chromiumPlaysServeShowsPlotsAndResumesAfterServerRestart() throws {
        let dir = try Tools.temporaryDirectory("preview-browser")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let token = "t0k3n"
        let fps = 30.0
        // The page is opened with the token; serve refuses every request without it, so playing and
        // plotting prove the page keeps it.
        let (json, log) = try PreviewBrowserDriver.run(
            "check", url: "http://127.0.0.1:\(port)/?token=\(token)",
            server: Self.serveCommand(port: port, token: token),
            extra: ["--sound", "--restart", "--network-log", "--screenshot", dir.appendingPathComponent("page.png").path],
            serverLog: dir.appendingPathComponent("serve.log").path)
        let summary = json.filter { !["first_state", "snapshot", "after_restart_snapshot"].contains($0.key) }
        print("preview check: \(summary)")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        try #require(json["first_play_seconds"] is NSNumber, "never played: \(json["first_state"] ?? "no state") \(json["console"] ?? "")")
        // The token travels in headers: no request the page made (Chromium's network log) carries it in
        // its URL but the page's own address, which the user opened.
        let requests = (json["requests"] as? [[String: String]]) ?? []
        #expect(requests.contains { $0["url"]?.hasSuffix("/stats.json") == true }, "\(requests)")
        let leaking = requests.filter { $0["type"] != "Document" && ($0["url"] ?? "").contains(token) }
        #expect(leaking.isEmpty, "the page put the token in: \(leaking)")

        // Plays at the stream's rate (the frames serve encoded meanwhile, from /stats.json): frames
        // decoded per second near it, few dropped, and the media clock advances with the wall clock.
        // Bounds have margins, and the driver measures up to three windows, for a loaded machine.
        let rate = Self.number(json, "playback", "fps") ?? 0
        let streamRate = Self.number(json, "playback", "stream_fps") ?? fps
        let seconds = Self.number(json, "playback", "seconds") ?? 1
        #expect(rate >= streamRate * 0.85 && rate <= fps * 1.2, "decoded \(rate) fps of a \(streamRate) fps stream")
        #expect((Self.number(json, "playback", "dropped_percent") ?? 100) < 5)
        #expect((Self.number(json, "playback", "current_time_advance") ?? 0) >= seconds * 0.8)

        // The page read the synthetic source's frame codes: glass-to-glass latencies, positive and
        // bounded (what they are is for bench/browser_latency.sh).
        let latencyCount = Self.number(json, "latency_ms", "count") ?? 0
        let latency = Self.number(json, "latency_ms", "p50") ?? -1
        #expect(latencyCount >= 0.8 * streamRate * seconds, "frame codes read: \(json["latency_ms"] ?? "none")")
        #expect(latency > 0 && latency < 3000, "glass-to-glass p50 \(latency) ms")

        // The screenshot shows a moving picture in the video element and a line in every plot.
        let video = (json["screenshot"] as? [String: Any])?["video"] as? [String: Any] ?? [:]
        #expect((video["lit_share"] as? Double ?? 0) > 0.3, "video area: \(video)")
        #expect((video["luma_spread"] as? Double ?? 0) > 20, "video area: \(video)")
        for plot in ["bitrate", "fps", "encode", "viewers", "latency"] {
            #expect((Self.number(json, "screenshot", plot) ?? 0) >= 3, "no line in the \(plot) plot: \(json["screenshot"] ?? "")")
        }

        // Muted, the page plays the video track alone; "Sound on" reconnects with the audio track.
        let mutedType = (json["snapshot"] as? [String: Any])?["mimeType"] as? String ?? ""
        #expect(mutedType.hasPrefix("video/mp4; codecs=\"avc1.") && !mutedType.contains("mp4a"), "muted: \(mutedType)")
        #expect(json["sound_on_seconds"] is NSNumber, "did not play with sound: \(json["sound_mime_type"] ?? "")")
        #expect((json["sound_mime_type"] as? String)?.contains("mp4a.40.2") == true)
        let withSound = Self.number(json, "with_sound", "fps") ?? 0
        #expect(withSound >= (Self.number(json, "with_sound", "stream_fps") ?? fps) * 0.7, "with sound decoded \(withSound) fps")

        // Stopping the server is noticed and said in words; started again, the page plays by itself.
        #expect(json["noticed_stop_seconds"] is NSNumber, "the page did not notice the server stop")
        let down = json["down_status"] as? String ?? ""
        #expect(down.contains("Server gone") || down.contains("lost"), "status while down: \(down)")
        try #require(
            json["resumed_seconds"] is NSNumber, "did not resume: \(json["after_restart_snapshot"] ?? "") \(json["console"] ?? "")")
        let after = Self.number(json, "after_restart", "fps") ?? 0
        #expect(after >= (Self.number(json, "after_restart", "stream_fps") ?? fps) * 0.7, "after the restart decoded \(after) fps")
        #expect((Self.number(json, "after_restart", "current_time_advance") ?? 0) > 0)
    }

    @Test(.enabled(if: PreviewBrowserDriver.missing == nil, "\(PreviewBrowserDriver.missing ?? "")"))
    func pageSaysWhenTheBrowserCannotPlayTheCodec() throws {
        // MPEG-4 Part 2 video in the fragmented MP4 (from the stand-in server: onair only makes H.264).
        let dir = try Tools.temporaryDirectory("preview-codec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        try PreviewPage.html().write(to: page, atomically: true, encoding: .utf8)
        let port = PreviewBrowserDriver.port
        let server = ["python3", PreviewBrowserDriver.standIn, "--port", "\(port)", "--page", page.path, "--video-codec", "mpeg4"]
        let (json, log) = try PreviewBrowserDriver.run(
            "status", url: "http://127.0.0.1:\(port)/", server: server,
            serverLog: dir.appendingPathComponent("server.log").path)
        print("preview codec: \(json["status"] ?? "none")")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        let status = json["status"] as? String ?? ""
        #expect(status.contains("Codec not supported") && status.contains("mp4v"), "status: \(status)")
    }

    @Test(.enabled(if: PreviewBrowserDriver.missing == nil, "\(PreviewBrowserDriver.missing ?? "")"))
    func mp4ReaderInThePageRefusesDamagedInputWithErrors() throws {
        // The page's box splitter, init segment reader and track remover, fed serve's own stream damaged in
        // thousands of ways inside Chromium: only plain Errors with messages, and the same boxes
        // wherever the chunks end.
        let dir = try Tools.temporaryDirectory("preview-fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let (json, log) = try PreviewBrowserDriver.run(
            "fuzz", url: "http://127.0.0.1:\(port)/?token=f", server: Self.serveCommand(port: port, token: "f"),
            extra: ["--iterations", "20000"],
            serverLog: dir.appendingPathComponent("serve.log").path)
        let fuzz = json["fuzz"] as? [String: Any] ?? [:]
        print("preview fuzz: \(fuzz)")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        #expect(fuzz["error"] == nil, "\(fuzz["error"] ?? "")")
        #expect(fuzz["failureCount"] as? Int == 0, "\(fuzz["failures"] ?? "")")
        #expect((fuzz["described"] as? Int ?? 0) + (fuzz["refused"] as? Int ?? 0) >= 5000)
        #expect((fuzz["rewritten"] as? Int ?? 0) >= 1000, "moov/moof rewriting exercised")
        #expect(fuzz["splits"] as? Int == 200)
        #expect((fuzz["codecs"] as? [String])?.first?.hasPrefix("avc1.") == true && (fuzz["codecs"] as? [String])?.last == "mp4a.40.2")
    }
}
#endif
