#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair play` in its window (a private Xvfb and PulseAudio null sink) of what `onair serve` gives
/// over HTTP: a live stream is played live — the window catches up to the newest frame — while a
/// file served over HTTP is played whole, at its own pace.
@Suite(.serialized) struct PlayerLiveHTTPTests {
    /// The player's report of `url` played in `rig`'s window for `seconds`.
    static func play(_ url: String, in rig: PlayerWindowTests.Rig, seconds: Int? = nil) throws -> [String: Any] {
        // Latency is read from the frame codes of a live synthetic stream (a file has none).
        let flags = seconds.map { ["--measure-latency", "--duration", "\($0)"] } ?? []
        let result = try Tools.run("env", rig.environment + [Tools.onairExecutable, "play", "--json", "--timeout", "20"] + flags + [url])
        #expect(result.status == 0, "\(url): \(result.stderr)")
        return try PlayerWindowTests.report(result)
    }

    @Test(.enabled(if: PlayerWindowTests.rigAvailable, "needs Xvfb, pulseaudio and ffmpeg"))
    func liveMPEGTSAndFragmentedMP4FromServeAreShownAtLiveLatency() throws {
        let rig = try PlayerWindowTests.Rig(label: "play-live-http")
        defer { rig.stop() }
        // Keyframes 2 s apart: a viewer joins on the cached keyframe, up to 2 s old. Played at the
        // file's pace from there the picture stayed that far behind (p50 shown 1.1 s over /live.ts,
        // 0.7 s over /live.mp4 at 640x360 before live HTTP was recognised).
        let server = try ServeTestServer(directory: rig.dir, duration: 40, arguments: ["--keyint-duration", "2"])
        defer { _ = server.finish(timeout: 5) }
        for path in ["/live.ts", "/live.mp4"] {
            let report = try Self.play(server.url(path), in: rig, seconds: 8)
            let shown = (report["display"] as? [String: Any])?["shown_latency_ms"] as? [String: Any] ?? [:]
            let p50 = shown["p50"] as? Double ?? .infinity
            print("PlayerLiveHTTPTests \(path): shown latency p50 \(p50) ms, \(shown["samples"] ?? 0) frames")
            #expect((shown["samples"] as? Int ?? 0) >= 60 && report["decode_errors"] as? Int == 0, "\(path): \(report)")
            #expect(p50 < 400, "\(path): the window stays \(p50) ms behind the capture")
        }
    }

    @Test(.enabled(if: PlayerWindowTests.rigAvailable, "needs Xvfb, pulseaudio and ffmpeg"))
    func aFileServedOverHTTPIsShownWholeWithNoFrameDroppedToCatchUp() throws {
        let rig = try PlayerWindowTests.Rig(label: "play-http-file")
        defer { rig.stop() }
        let file = rig.dir.appendingPathComponent("clip.ts")
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "4", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", "-y", file.path,
        ])
        // Port 0: it names the port it bound ("Serving HTTP on 127.0.0.1 port N …", unbuffered).
        let web = try StreamTestProcess(
            "python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", rig.dir.path],
            stderrPath: rig.dir.appendingPathComponent("http.log").path, stdoutPath: rig.dir.appendingPathComponent("http.out").path)
        defer { web.kill() }
        let port = try web.announcedPort("Serving HTTP on 127.0.0.1 port ")
        #expect(waitUntil(timeout: 10) { StreamTestPorts.accepts(port) })
        let report = try Self.play("http://127.0.0.1:\(port)/clip.ts", in: rig)
        let display = report["display"] as? [String: Any] ?? [:]
        #expect(report["frames"] as? Int == 120 && display["frames_shown"] as? Int == 120, "\(report)")
        #expect(display["frames_dropped_catch_up"] as? Int == 0, "\(display)")
    }
}
#endif
