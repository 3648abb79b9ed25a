#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Token rotation on SIGHUP (issue 33): `onair serve --config FILE` with token A and an HTTP, an
/// RTSP (ffmpeg over TCP) and an SRT viewer on it; the file gets A and B, SIGHUP, an HTTP, an RTSP
/// and an SRT viewer join with B; the file keeps B only, SIGHUP: A's three viewers end within
/// seconds, counted as cut at the token's removal, A is refused on every face, while B's three go
/// on with no gap in their video over 0.5 s.
@Suite(.serialized) struct ServeTokenReloadTests {
    @Test func removingATokenCutsItsViewersAndKeepsTheOthersPlaying() throws {
        let dir = try Tools.temporaryDirectory("serve-token-reload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (tokenA, tokenB) = ("rotation-token-A", "rotation-token-B")
        let file = dir.appendingPathComponent("onair.yml")
        try "token: [\(tokenA)]\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(
            directory: dir, duration: 32, arguments: ["--config", file.path, "--rtsp-port", "0", "--srt-port", "0"])
        defer { _ = server.finish(timeout: 0) }
        let rtspPort = try server.announcedPort("RTSP: rtsp://"), srtPort = try server.announcedPort("SRT callers: srt://")
        func totals(_ token: String) -> [String: Any] { ((try? server.statistics(token: token))?["totals"] as? [String: Any]) ?? [:] }
        func reload(_ tokens: [String], expecting line: String) throws {
            try "token: [\(tokens.joined(separator: ", "))]\n".write(to: file, atomically: true, encoding: .utf8)
            kill(server.process.process.processIdentifier, SIGHUP)
            #expect(waitUntil(timeout: 10) { server.process.stderr.contains(line) }, "\(server.process.stderr)")
        }
        func httpViewer(_ name: String, _ token: String) throws -> StreamTestProcess {
            try StreamTestProcess(
                "curl", ["-s", "-m", "28", "-o", dir.appendingPathComponent("\(name).ts").path, server.url("/live.ts?token=\(token)")],
                stderrPath: dir.appendingPathComponent("\(name).log").path)
        }
        func rtspViewer(_ name: String, _ token: String) throws -> StreamTestProcess {
            try StreamTestProcess(
                "ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-rtsp_transport", "tcp",
                    "-i", "rtsp://onair:\(token)@127.0.0.1:\(rtspPort)/live", "-c", "copy", "-f", "mpegts", "-flush_packets", "1", "-y",
                    dir.appendingPathComponent("\(name).ts").path,
                ], stderrPath: dir.appendingPathComponent("\(name).log").path)
        }
        let httpA = try httpViewer("http-a", tokenA)
        defer { httpA.kill() }
        let rtspA = try rtspViewer("rtsp-a", tokenA)
        defer { rtspA.kill() }
        func srtViewer(_ name: String, _ token: String) throws -> StreamTestProcess {
            try StreamTestProcess(
                "ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-i", "srt://127.0.0.1:\(srtPort)?mode=caller&passphrase=\(token)",
                    "-c", "copy", "-f", "mpegts", "-flush_packets", "1", "-y", dir.appendingPathComponent("\(name).ts").path,
                ], stderrPath: dir.appendingPathComponent("\(name).log").path)
        }
        let srtA = try srtViewer("srt-a", tokenA)
        defer { srtA.kill() }
        #expect(waitUntil(timeout: 15) { totals(tokenA)["viewers"] as? Int == 3 }, "\(server.process.stderr)")

        try reload([tokenA, tokenB], expecting: "reload: applied token; 0 viewers cut (their token was removed)")
        let httpB = try httpViewer("http-b", tokenB)
        defer { httpB.kill() }
        let rtspB = try rtspViewer("rtsp-b", tokenB)
        defer { rtspB.kill() }
        // SRT callers need the newest token as passphrase from now on.
        let srtB = try srtViewer("srt-b", tokenB)
        defer { srtB.kill() }
        #expect(waitUntil(timeout: 10) { totals(tokenB)["viewers"] as? Int == 6 })
        // Who is still on A shows before A goes: what admitted each viewer, never the token itself.
        let entries = (try server.statistics(token: tokenB))["viewers"] as? [[String: Any]] ?? []
        let admitted = entries.compactMap { $0["admitted_by"] as? String }
        #expect(admitted.sorted() == ["token #1", "token #1", "token #1", "token #2", "token #2", "token #2"], "\(admitted)")
        // What each of B's viewers has written (ffmpeg only once it has probed the stream).
        func received() -> [Int] {
            ["http-b", "rtsp-b", "srt-b"].map { name in
                let path = dir.appendingPathComponent("\(name).ts").path
                return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            }
        }
        #expect(waitUntil(timeout: 15) { received().allSatisfy { $0 > 100_000 } }, "\(received())")

        try reload([tokenB], expecting: "reload: applied token; 3 viewers cut (their token was removed)")
        // A's viewers end by themselves (the server closed them), B's goes on.
        #expect(httpA.wait(timeout: 3), "the HTTP viewer of the removed token still plays")
        #expect(rtspA.wait(timeout: 5), "the RTSP viewer of the removed token still plays")
        #expect(srtA.wait(timeout: 8), "the SRT caller of the removed token still plays")
        #expect(try server.get("/live.ts?token=\(tokenA)").status == 401)
        let afterCut = received()
        #expect(waitUntil(timeout: 10) { zip(received(), afterCut).allSatisfy { $0 > $1 + 150_000 } }, "\(received())")
        let counted = totals(tokenB)
        #expect(counted["viewers"] as? Int == 3)
        #expect(counted["cut_credential_withdrawn"] as? Int == 3)
        #expect(counted["cut_too_slow"] as? Int == 0)
        #expect(!server.process.stderr.contains(tokenA) && !server.process.stderr.contains(tokenB))
        // A token removed is refused on RTSP too (Digest against the keys in force).
        let refused = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-rtsp_transport", "tcp",
                "-i", "rtsp://onair:\(tokenA)@127.0.0.1:\(rtspPort)/live", "-t", "1", "-f", "null", "-",
            ])
        #expect(refused.status != 0 && refused.stderr.contains("401"), "\(refused.stderr)")
        #expect(rtspB.process.isRunning, "the RTSP viewer on B stopped: \(rtspB.stderr)")
        #expect(srtB.process.isRunning, "the SRT caller on B stopped: \(srtB.stderr)")
        let refusedSRT = try Tools.run(
            "timeout",
            [
                "8", "ffmpeg", "-hide_banner", "-nostdin", "-v", "error",
                "-i", "srt://127.0.0.1:\(srtPort)?mode=caller&passphrase=\(tokenA)", "-t", "1", "-f", "null", "-",
            ])
        #expect(refusedSRT.status != 0, "an SRT caller with the removed token was let in")
        // Killed: each wrote every packet as it came (-flush_packets 1), so nothing is lost.
        for viewer in [httpB, rtspB, srtB] { viewer.kill() }

        for name in ["http-b", "rtsp-b", "srt-b"] {
            let coverage = try ServeCommandTests.videoCoverage(dir.appendingPathComponent("\(name).ts").path, fps: 15)
            #expect(coverage.frames > 45, "\(name): \(coverage)")
            #expect(coverage.largestGap <= 0.5, "\(name): B's video has a gap of \(coverage.largestGap) s across the reloads")
        }
    }
}
#endif
