#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// SIGHUP to `onair serve --config FILE`: a file that does not parse is refused with a log line
/// naming file and line while serving goes on; a valid one applies `max-viewers` at once (the
/// viewer already watching stays, the next is refused) and names what needs a restart.
@Suite(.serialized) struct ServeReloadTests {
    @Test func aBrokenFileIsRefusedAndAValidOneAppliesMaxViewersWithoutDroppingTheViewer() throws {
        let dir = try Tools.temporaryDirectory("serve-reload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("onair.yml")
        try "max-viewers: 2\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(directory: dir, duration: 25, arguments: ["--config", file.path])
        defer { _ = server.finish(timeout: 0) }
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }
        let viewer = try StreamTestProcess(
            "curl", ["-s", "-m", "20", "-o", dir.appendingPathComponent("viewer.ts").path, server.url("/live.ts")],
            stderrPath: dir.appendingPathComponent("viewer.log").path)
        #expect(waitUntil(timeout: 15) { totals()["viewers"] as? Int == 1 })

        try "max-viewers: 1\nkeyint: [\n".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.process.processIdentifier, SIGHUP)
        #expect(
            waitUntil(timeout: 10) { server.process.stderr.contains("reload refused, the running configuration stays: \(file.path):3") })
        #expect(server.process.process.isRunning)
        #expect(waitUntil(timeout: 10) { totals()["viewers"] as? Int == 1 })

        try "max-viewers: 1\nhls-time: 3\n".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.process.processIdentifier, SIGHUP)
        #expect(
            waitUntil(timeout: 10) {
                server.process.stderr.contains("reload: applied max-viewers; needs a restart (not applied): hls-time")
            }, "\(server.process.stderr)")
        let bytesBefore = (try? server.statistics())?["viewers"] as? [[String: Any]]
        #expect(try server.get("/live.ts").status == 503)  // the maximum is now 1, and one watches
        #expect(totals()["viewers"] as? Int == 1)
        #expect(totals()["refused_full"] as? Int == 1)
        // The viewer admitted before the reload goes on receiving.
        let sent = { ((try? server.statistics())?["viewers"] as? [[String: Any]])?.first?["bytes_sent"] as? Int ?? 0 }
        let earlier = (bytesBefore?.first?["bytes_sent"] as? Int) ?? 0
        #expect(waitUntil(timeout: 10) { sent() > earlier + 10_000 })
        viewer.kill()
    }

    @Test func aNewBitRateIsAppliedToTheRunningEncode() throws {
        let dir = try Tools.temporaryDirectory("serve-reload-rate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("onair.yml")
        try "bitrate: 800k\nlisten: 127.0.0.1:0\n".write(to: file, atomically: true, encoding: .utf8)
        let server = try StreamTestProcess(
            Tools.onairExecutable,
            ["serve", "--config", file.path, "--duration", "25", "--size", "320x240", "--fps", "15", "--preset", "ultrafast"],
            stderrPath: dir.appendingPathComponent("serve.log").path)
        defer { server.kill() }
        let port = try server.announcedPort("serving http://")
        func target() -> Int? {
            let reply = try? Tools.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(port)/stats.json"])
            let document = reply.flatMap { try? JSONSerialization.jsonObject(with: $0.stdout) as? [String: Any] }
            return (document?["encoder"] as? [String: Any])?["target_bitrate"] as? Int
        }
        #expect(waitUntil(timeout: 20) { target() == 800_000 }, "\(server.stderr)")
        try "bitrate: 300k\nlisten: 127.0.0.1:0\n".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(waitUntil(timeout: 10) { server.stderr.contains("reload: applied bitrate") }, "\(server.stderr)")
        #expect(waitUntil(timeout: 10) { target() == 300_000 }, "\(server.stderr)")
    }
}
#endif
