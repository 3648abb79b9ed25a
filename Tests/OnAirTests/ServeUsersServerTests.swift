#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// A serving session with users (in process: the config file's `users:` is read elsewhere), its
/// HTTP face asked by curl from two loopback addresses.
@Suite(.serialized) struct ServeUsersServerTests {
    /// curl's status code for `path` with `arguments` (credentials, source address).
    static func status(_ port: Int, _ path: String, _ arguments: [String] = []) throws -> Int {
        let result = try Tools.run(
            "curl", ["-s", "-m", "5", "-o", "/dev/null", "-w", "%{http_code}"] + arguments + ["http://127.0.0.1:\(port)\(path)"])
        return Int(result.stdoutText) ?? 0
    }

    /// A session serving synthetic media to `users` on a port the server picks, read back
    /// (`/metrics` not open to loopback here, so the users' permissions decide it), built, not
    /// started.
    static func session(users: [ServeUser]) async throws -> (session: Session, port: Int) {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.videoEncoder = VideoEncoderSettings(width: 320, height: 240, expectedFrameRate: 15, averageBitRate: 400_000)
        settings.videoEncoder.preset = "ultrafast"
        var serving = ServingSettings()
        serving.server.port = 0
        serving.server.metricsAddresses = []
        serving.server.users = users
        settings.serving = serving
        let session = try await SessionBuilder(settings).build()
        // The port the server bound, read back from where the session says it serves.
        let port = try #require(session.servedEndpoints.flatMap { URL(string: $0.baseURL)?.port })
        return (session, port)
    }

    @Test func permissionsRangesWrongPasswordsAndABlockedAddressBesideOneThatPlays() async throws {
        let dir = try Tools.temporaryDirectory("serve-users")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (session, port) = try await Self.session(
            users: [
                try ServeUser(name: "alice", passwordHash: try ServePasswordHash.make("alice-pw"), permissions: ["read"]),
                try ServeUser(
                    name: "far", passwordHash: try ServePasswordHash.make("far-pw"), permissions: ["read", "metrics"],
                    addresses: ["192.0.2.0/24"]),
            ])
        try session.start()
        defer { _ = try? session.stop() }
        #expect(waitUntil(timeout: 10) { (try? Self.status(port, "/stats.json", ["-u", "alice:alice-pw"])) == 200 })
        #expect(try Self.status(port, "/stats.json") == 401)
        #expect(try Self.status(port, "/metrics", ["-u", "alice:alice-pw"]) == 403, "a read user on /metrics")
        #expect(try Self.status(port, "/recordings/", ["-u", "alice:alice-pw"]) == 403, "a read user on playback")
        #expect(try Self.status(port, "/stats.json", ["-u", "far:far-pw"]) == 403, "a user outside its range")
        #expect(
            try Self.status(port, "/stats.json?token=alice-pw", ["--interface", "127.0.0.3"]) == 401,
            "no token configured: the query is no credential")

        // 20 wrong passwords from 127.0.0.1: 401 ten times, then 429; meanwhile alice on 127.0.0.2 plays.
        let output = dir.appendingPathComponent("alice.ts").path
        let viewer = Tools.process(
            "curl", ["-s", "-m", "8", "--interface", "127.0.0.2", "-u", "alice:alice-pw", "-o", output, "http://127.0.0.1:\(port)/live.ts"])
        try viewer.runUnblocked()
        var codes: [Int] = []
        for _ in 0..<20 { codes.append(try Self.status(port, "/stats.json", ["-u", "alice:wrong"])) }
        #expect(codes.prefix(10).allSatisfy { $0 == 401 } && codes.dropFirst(10).allSatisfy { $0 == 429 }, "\(codes)")
        #expect(try Self.status(port, "/stats.json", ["-u", "alice:alice-pw"]) == 429, "the blocked address waits, right password or not")
        #expect(try Self.status(port, "/stats.json", ["--interface", "127.0.0.2", "-u", "alice:alice-pw"]) == 200)
        viewer.waitUntilExit()
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        #expect(size > 100_000, "alice on 127.0.0.2 got \(size) bytes (curl \(viewer.terminationStatus))")
        let frames = try Tools.run(
            "ffprobe",
            ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", output])
        #expect(
            (frames.stdoutText.split(whereSeparator: \.isNewline).compactMap { Int($0) }.first ?? 0) >= 60,
            "alice on 127.0.0.2: \(frames.stdoutText) \(frames.stderr)")
    }
}

extension ServeUsersServerTests {
    /// A reload of the users while two users watch: the one whose password changed is cut at once
    /// (counted), the other plays on; the old password is refused from then on, the new one opens.
    @Test func aReloadCutsTheViewerOfAChangedPasswordAndKeepsTheOther() async throws {
        let dir = try Tools.temporaryDirectory("serve-users-reload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bob = try ServeUser(name: "bob", passwordHash: try ServePasswordHash.make("bob-pw"), permissions: ["read"])
        let (session, port) = try await Self.session(
            users: [try ServeUser(name: "alice", passwordHash: try ServePasswordHash.make("old-pw"), permissions: ["read"]), bob])
        try session.start()
        defer { _ = try? session.stop() }
        #expect(waitUntil(timeout: 10) { (try? Self.status(port, "/stats.json", ["-u", "bob:bob-pw"])) == 200 })
        func viewer(_ credentials: String) throws -> Process {
            let process = Tools.process(
                "curl", ["-s", "-m", "20", "-u", credentials, "-o", "/dev/null", "http://127.0.0.1:\(port)/live.ts"])
            try process.runUnblocked()
            return process
        }
        let alice = try viewer("alice:old-pw"), bobViewer = try viewer("bob:bob-pw")
        defer { for process in [alice, bobViewer] where process.isRunning { process.terminate() } }
        #expect(waitUntil(timeout: 10) { Self.viewerCount(port) == 2 })

        let changed = try ServeUser(name: "alice", passwordHash: try ServePasswordHash.make("new-pw"), permissions: ["read"])
        #expect(session.reloadCredentials(tokens: nil, users: [changed, bob])?.cut == 1)
        #expect(waitUntil(timeout: 3) { !alice.isRunning }, "alice's viewer still plays")
        #expect(bobViewer.isRunning)
        #expect(try Self.status(port, "/stats.json", ["-u", "alice:old-pw"]) == 401)
        #expect(try Self.status(port, "/stats.json", ["-u", "alice:new-pw"]) == 200)
        #expect(Self.viewerCount(port) == 1)
    }
}

extension ServeUsersServerTests {
    /// How many viewers `/stats.json` counts (asked as bob).
    static func viewerCount(_ port: Int) -> Int? {
        let reply = try? Tools.run("curl", ["-s", "-m", "5", "-u", "bob:bob-pw", "http://127.0.0.1:\(port)/stats.json"])
        let document = reply.flatMap { try? JSONSerialization.jsonObject(with: $0.stdout) as? [String: Any] }
        return (document?["totals"] as? [String: Any])?["viewers"] as? Int
    }
}
#endif
