#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// WHEP over HTTPS: aiortc viewers (Tests/Tools/whep_viewers.py) post their offers to
/// `https://127.0.0.1:PORT/whep` checking the server against the test CA, decode H.264 and Opus,
/// and DELETE; without the CA the same client refuses the server.
@Suite(.serialized) struct ServeWHEPHTTPSTests {
    @Test(.enabled(if: ServeWebRTCTests.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func aiortcPlaysOverWHEPOnHTTPSCheckedAgainstTheCA() throws {
        let dir = try Tools.temporaryDirectory("serve-whep-https")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try ServeTLSTests.TestCA(dir)
        let token = "whep-https-7"
        let server = try ServeTestServer(
            directory: dir, duration: 40,
            arguments: ["--webrtc", "--tls-cert", ca.certificate, "--tls-key", ca.key, "--token", token, "--keyint-duration", "1"])
        defer { server.process.kill() }
        let whep = "https://127.0.0.1:\(server.port)/whep"
        let played = try Tools.run(
            Tools.aiortcPython,
            [ServeWebRTCLoadTests.viewers, "--url", whep, "--token", token, "--ca-file", ca.ca, "--count", "1", "--seconds", "4"],
            timeout: 60)
        let json = (try? JSONSerialization.jsonObject(with: played.stdout)) as? [String: Any]
        let viewer = try #require((json?["viewers"] as? [[String: Any]])?.first, "no verdict: \(played.stderr)")
        #expect(viewer["status"] as? Int == 201, "\(viewer)")
        #expect(viewer["delete_status"] as? Int == 200, "\(viewer)")
        // 15 fps for 4 s, and audio (Opus, 50 packets a second), with a margin for a loaded machine.
        #expect((viewer["video_frames"] as? Int ?? 0) >= 40, "video over WHEP on HTTPS: \(viewer)")
        #expect((viewer["audio_frames"] as? Int ?? 0) >= 100, "audio over WHEP on HTTPS: \(viewer)")
        #expect((viewer["decode_errors"] as? Int ?? 1) == 0 && (viewer["corrupt_frames"] as? Int ?? 1) == 0, "\(viewer)")
        // Without the CA (the system's authorities only), the offer is never sent.
        let refused = try Tools.run(
            Tools.aiortcPython, [ServeWebRTCLoadTests.viewers, "--url", whep, "--token", token, "--count", "1", "--seconds", "1"],
            timeout: 60)
        #expect(refused.status != 0 && refused.stderr.contains("CERTIFICATE_VERIFY_FAILED"), "\(refused.stderr.suffix(400))")
    }
}
#endif
