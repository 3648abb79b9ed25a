#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// The preview page's Low-Latency HLS transport (`/?via=llhls`) in headless Chromium
/// (Tests/Tools/preview_browser.py) in front of `onair serve --hls-variant lowlatency`: the page's
/// own client asks for each next part by blocking reload and plays the parts over MSE at the
/// stream's rate, reading the frame codes of what it decodes (glass-to-decode; its figure is for
/// bench, only bounded here), with the token in a header, never in a URL.
@Suite struct LowLatencyHLSPreviewTests {
    @Test(.enabled(if: PreviewBrowserDriver.missing == nil, "\(PreviewBrowserDriver.missing ?? "")"))
    func chromiumPlaysTheLowLatencyVariantOverMSE() throws {
        let dir = try Tools.temporaryDirectory("llhls-preview")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let token = "ll7oken"
        let fps = 30.0
        let server = [
            Tools.onairExecutable, "serve", "--listen", "127.0.0.1:\(port)", "--token", token, "--size", "320x240", "--fps", "30",
            "--bitrate", "600k", "--preset", "ultrafast", "--hls-variant", "lowlatency", "--hls-time", "1", "--hls-part-duration", "0.2",
        ]
        let (json, log) = try PreviewBrowserDriver.run(
            "check", url: "http://127.0.0.1:\(port)/?via=llhls&token=\(token)", server: server,
            extra: ["--network-log", "--screenshot", dir.appendingPathComponent("page.png").path],
            serverLog: dir.appendingPathComponent("serve.log").path)
        let summary = json.filter { !["first_state", "snapshot", "requests"].contains($0.key) }
        print("llhls preview check: \(summary)")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        try #require(json["first_play_seconds"] is NSNumber, "never played: \(json["first_state"] ?? "no state") \(json["console"] ?? "")")
        #expect((json["snapshot"] as? [String: Any])?["transport"] as? String == "llhls", "\(json["snapshot"] ?? "")")
        // What it asked for: blocking reloads and parts, never /live.mp4; the token in no URL.
        let urls = ((json["requests"] as? [[String: String]]) ?? []).compactMap { $0["url"] }
        #expect(urls.filter { $0.contains("/live.m3u8?_HLS_msn=") }.count >= 10, "\(urls.suffix(20))")
        #expect(urls.filter { $0.contains("/part_") }.count >= 10 && !urls.contains { $0.hasSuffix("/live.mp4") }, "\(urls.suffix(20))")
        #expect(urls.filter { $0.contains(token) }.count <= 1, "the page put the token in: \(urls.filter { $0.contains(token) })")
        // One connection all along: it asks only for listed parts (a preload hint's part that a
        // keyframe's new segment replaced was a 404, and the page reconnected at every segment).
        let connections = ((json["snapshot"] as? [String: Any])?["connections"] as? NSNumber)?.intValue
        #expect(connections == 1, "connections \(connections ?? -1): \(json["console"] ?? "")")
        // Plays at the stream's rate, the picture moving on.
        let number = { (path: [String]) -> Double? in
            var object: Any? = json
            for key in path { object = (object as? [String: Any])?[key] }
            return (object as? NSNumber)?.doubleValue
        }
        let rate = number(["playback", "fps"]) ?? 0
        let streamRate = number(["playback", "stream_fps"]) ?? fps
        #expect(rate >= streamRate * 0.85 && rate <= fps * 1.2, "decoded \(rate) fps of a \(streamRate) fps stream")
        #expect((number(["playback", "dropped_percent"]) ?? 100) < 5)
        // Frame codes read from what it decodes, glass-to-decode bounded (the figure is the bench's).
        let seconds = number(["playback", "seconds"]) ?? 1
        #expect((number(["latency_ms", "count"]) ?? 0) >= 0.8 * streamRate * seconds, "\(json["latency_ms"] ?? "none")")
        let latency = number(["latency_ms", "p50"]) ?? -1
        #expect(latency > 0 && latency < 3000, "glass-to-decode p50 \(latency) ms")
    }
}
#endif
