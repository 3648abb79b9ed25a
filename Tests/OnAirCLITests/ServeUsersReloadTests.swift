#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// SIGHUP re-reads `users:` (issue 33), end to end with curl: a user added by the reload gets in,
/// a removed user's watching viewer is cut (as a removed token's is) and their new requests get
/// 401, and the viewer of a user who stays plays on over its connection.
@Suite(.serialized) struct ServeUsersReloadTests {
    @Test func aReloadAddsAUserAndCutsARemovedOnesViewer() throws {
        let dir = try Tools.temporaryDirectory("serve-users-reload")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hash(_ password: String) throws -> String {
            try Tools.run(Tools.onairExecutable, ["hash-password"], stdin: Data("\(password)\n".utf8)).stdoutText
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let hashes = ["alice": try hash("pw-alice"), "bob": try hash("pw-bob"), "carol": try hash("pw-carol")]
        func users(_ names: [String]) -> String {
            "users:\n" + names.map { "  - name: \($0)\n    password: \"\(hashes[$0]!)\"\n    permissions: [read]\n" }.joined()
        }
        let file = dir.appendingPathComponent("onair.yml")
        try users(["alice", "bob"]).write(to: file, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(directory: dir, duration: 20, arguments: ["--config", file.path])
        defer { _ = server.finish(timeout: 0) }
        func status(_ user: String, _ path: String) -> Int {
            let reply = try? Tools.run(
                "curl", ["-s", "-m", "1", "-o", "/dev/null", "-w", "%{http_code}", "-u", "\(user):pw-\(user)", server.url(path)])
            return Int(reply?.stdoutText ?? "") ?? 0
        }
        func metric(_ name: String) -> Double? {
            let text = (try? server.get("/metrics")).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            return ServeMetricsHealthTests.sample(text, name)
        }
        func viewer(_ user: String) throws -> StreamTestProcess {
            try StreamTestProcess(
                "curl",
                [
                    "-s", "-m", "18", "-u", "\(user):pw-\(user)", "-o", dir.appendingPathComponent("\(user).ts").path,
                    server.url("/live.ts"),
                ],
                stderrPath: dir.appendingPathComponent("\(user).log").path)
        }
        func received(_ user: String) -> Int {
            (try? FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("\(user).ts").path)[.size] as? Int) ?? 0
        }
        #expect(status("carol", "/stats.json") == 401)
        let (alice, bob) = (try viewer("alice"), try viewer("bob"))
        defer { for process in [alice, bob] { process.kill() } }
        #expect(waitUntil(timeout: 10) { metric("onair_viewers{face=\"http\"}") == 2 && received("bob") > 20_000 })

        try users(["bob", "carol"]).write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.process.processIdentifier, SIGHUP)
        #expect(
            waitUntil(timeout: 5) { server.process.stderr.contains("reload: applied users; 1 viewer cut") }, "\(server.process.stderr)")
        #expect(alice.wait(timeout: 5), "alice's viewer was not cut")
        #expect(status("alice", "/stats.json") == 401)
        #expect(status("carol", "/stats.json") == 200)
        let bobAtReload = received("bob")
        #expect(waitUntil(timeout: 5) { received("bob") > bobAtReload + 20_000 }, "bob's viewer stopped")
        #expect(bob.process.isRunning)
        #expect(metric("onair_viewers{face=\"http\"}") == 1)
        #expect(metric("onair_viewers_cut_token_removed_total") == 1)
        #expect(metric("onair_viewers_served_total") == 2)
    }
}
#endif
