#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Token rotation on SIGHUP for WebRTC (issue 33): an aiortc WHEP viewer on token A, the file gets
/// A and B, SIGHUP, a second viewer joins with B; the file keeps B only, SIGHUP: A's viewer is
/// closed by the server at once (counted as cut at the token's removal), B's plays to its end
/// with no gap in its video over 0.5 s; A's own DELETE after the cut counts as no failed login.
/// Two aiortc decoders: lane A (scripts/test-lane-a.txt).
@Suite(.serialized) struct ServeTokenReloadWebRTCTests {
    @Test(.enabled(if: ServeWebRTCTests.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func removingATokenClosesItsWHEPViewerAndKeepsTheOther() throws {
        let dir = try Tools.temporaryDirectory("serve-token-reload-webrtc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (tokenA, tokenB) = ("webrtc-token-A", "webrtc-token-B")
        let file = dir.appendingPathComponent("onair.yml")
        try "token: [\(tokenA)]\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(
            directory: dir, duration: 34, arguments: ["--config", file.path, "--webrtc", "--keyint-duration", "1"])
        defer { _ = server.finish(timeout: 0) }
        func webRTCViewers(_ token: String) -> [[String: Any]] {
            (try? server.statistics(token: token))?["webrtc_viewers"] as? [[String: Any]] ?? []
        }
        func reload(_ tokens: [String], expecting line: String) throws {
            try "token: [\(tokens.joined(separator: ", "))]\n".write(to: file, atomically: true, encoding: .utf8)
            kill(server.process.process.processIdentifier, SIGHUP)
            #expect(waitUntil(timeout: 10) { server.process.stderr.contains(line) }, "\(server.process.stderr)")
        }
        func viewer(_ name: String, _ token: String, seconds: Int) throws -> StreamTestProcess {
            try StreamTestProcess(
                Tools.aiortcPython,
                [
                    ServeWebRTCTests.client, "--url", server.url("/whep"), "--token", token, "--seconds", "\(seconds)",
                    "--out", dir.appendingPathComponent("\(name).nut").path,
                ],
                stderrPath: dir.appendingPathComponent("\(name).log").path, stdoutPath: dir.appendingPathComponent("\(name).json").path)
        }
        func summary(_ name: String) -> [String: Any] {
            let text = (try? String(contentsOf: dir.appendingPathComponent("\(name).json"), encoding: .utf8)) ?? ""
            let line = text.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }

        let viewerA = try viewer("a", tokenA, seconds: 20)
        defer { viewerA.kill() }
        #expect(waitUntil(timeout: 20) { webRTCViewers(tokenA).count == 1 }, "\(viewerA.stderr)")
        try reload([tokenA, tokenB], expecting: "reload: applied token; 0 viewers cut")
        let viewerB = try viewer("b", tokenB, seconds: 12)
        defer { viewerB.kill() }
        // Both play (B for two seconds at least) before A's token goes.
        #expect(
            waitUntil(timeout: 20) {
                let viewers = webRTCViewers(tokenB)
                return viewers.count == 2 && viewers.allSatisfy { ($0["frames_sent"] as? Int ?? 0) >= 30 }
            }, "\(webRTCViewers(tokenB)); \(viewerB.stderr)")
        try reload([tokenB], expecting: "reload: applied token; 1 viewer cut (their token was removed)")
        #expect(webRTCViewers(tokenB).count == 1)
        #expect((try server.statistics(token: tokenB)["totals"] as? [String: Any])?["cut_credential_withdrawn"] as? Int == 1)

        #expect(viewerB.wait(timeout: 30), "\(viewerB.stderr)")
        #expect(viewerA.wait(timeout: 30), "\(viewerA.stderr)")
        let b = summary("b"), a = summary("a")
        #expect(b["status"] as? Int == 201 && b["delete_status"] as? Int == 200 && b["decode_errors"] as? Int == 0, "\(b)")
        // A's session is gone: its own DELETE is answered as ended, not as a failed login.
        #expect(a["status"] as? Int == 201 && a["delete_status"] as? Int == 200, "\(a)")
        #expect(!server.process.stderr.contains("onair auth: failed"), "\(server.process.stderr)")
        // A's viewer got what was sent until the cut, well short of its 20 s.
        #expect((a["video_frames"] as? Int ?? 0) < 15 * 14, "\(a)")
        let coverage = try ServeCommandTests.videoCoverage(dir.appendingPathComponent("b.nut").path, fps: 15)
        #expect(coverage.frames >= 120, "\(coverage)")
        #expect(coverage.largestGap <= 0.5, "B's video has a gap of \(coverage.largestGap) s across the reload")
    }
}
#endif
