#if os(Linux)
import Foundation
import OnAirServeConfig
import OnAirServing
import OnAirTestSupport
import Testing

/// Users, address ranges, argon2id hashes, the failure limiter (an injected clock) and the access
/// policy's verdicts, without a server.
@Suite struct ServeAccessTests {
    /// A clock the test moves.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 1000.0
        var now: Double {
            lock.lock()
            defer { lock.unlock() }
            return value
        }
        func advance(_ seconds: Double) {
            lock.lock()
            value += seconds
            lock.unlock()
        }
    }

    /// Lines a policy logged.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        func append(_ line: String) {
            lock.lock()
            stored.append(line)
            lock.unlock()
        }
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test func addressRangesParseAndMatchIPv4IPv6AndMappedAddresses() throws {
        let lan = try ServeAddressRange("192.168.1.0/24")
        #expect(lan.contains("192.168.1.77") && !lan.contains("192.168.2.1") && !lan.contains("::1"))
        #expect(lan.contains("::ffff:192.168.1.5"))
        #expect(try ServeAddressRange("127.0.0.1").contains("127.0.0.1"))
        #expect(!(try ServeAddressRange("127.0.0.1")).contains("127.0.0.2"))
        let v6 = try ServeAddressRange("2001:db8::/32")
        #expect(v6.contains("2001:db8:1::5") && !v6.contains("2001:db9::1") && !v6.contains("10.0.0.1"))
        #expect(try ServeAddressRange("0.0.0.0/0").contains("203.0.113.9"))
        #expect(v6.description == "2001:db8::/32")
        for bad in ["192.168.1.0/33", "192.168.1.1/24", "host.example", "1.2.3.4/", "1.2.3.4/x", "::/129", ""] {
            #expect(throws: ServeAddressRange.ParseError.self, "\(bad)") { try ServeAddressRange(bad) }
        }
    }

    @Test func passwordHashesAreArgon2idPHCStringsThatRoundTrip() throws {
        let hash = try ServePasswordHash.make("correct horse")
        #expect(hash.hasPrefix("$argon2id$v=19$m=19456,t=2,p=1$"))
        #expect(!hash.contains("correct"))
        #expect(ServePasswordHash.verify("correct horse", hash: hash))
        #expect(!ServePasswordHash.verify("correct horsE", hash: hash))
        #expect(!ServePasswordHash.verify("", hash: hash))
        #expect(try ServePasswordHash.make("correct horse") != hash, "a new salt each time")
        #expect(throws: ServeAuthError.self) { try ServePasswordHash.validate("correct horse") }
        #expect(throws: ServeAuthError.self) { try ServePasswordHash.validate("$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaA") }
        #expect(throws: ServeAuthError.self) { try ServePasswordHash.validate("$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$aGFzaA") }
        #expect(!ServePasswordHash.verify("x", hash: "plain"))
    }

    @Test func usersAreCheckedWhenMade() throws {
        let hash = try ServePasswordHash.make("pw")
        let user = try ServeUser(name: "alice", passwordHash: hash, permissions: ["read", "metrics"], addresses: ["10.0.0.0/8"])
        #expect(user.permissions == [.read, .metrics])
        #expect(user.admits("10.1.2.3") && !user.admits("192.168.1.1"))
        #expect(try ServeUser(name: "bob", passwordHash: hash, permissions: []).admits("192.168.1.1"))
        #expect(throws: ServeAuthError.self) { try ServeUser(name: "a:b", passwordHash: hash, permissions: []) }
        #expect(throws: ServeAuthError.self) { try ServeUser(name: "carol", passwordHash: "pw", permissions: []) }
        #expect(throws: ServeAuthError.self) { try ServeUser(name: "dave", passwordHash: hash, permissions: ["write"]) }
        #expect(throws: ServeAuthError.self) { try ServeUser(name: "erin", passwordHash: hash, permissions: [], addresses: ["10.0.0.1/8"]) }
    }

    @Test func theLimiterBlocksAfterTenFailuresInASlidingMinuteForGrowingTimes() {
        let clock = Clock()
        let limiter = ServeFailureLimiter(now: { clock.now })
        // Nine failures a minute apart never block: the window slides.
        for _ in 0..<20 {
            #expect(limiter.fail("192.0.2.1") == nil)
            clock.advance(7)
        }
        #expect(limiter.blocked("192.0.2.1") == nil)
        clock.advance(120)
        for index in 1...10 {
            let blocked = limiter.fail("192.0.2.1")
            #expect((blocked != nil) == (index == 10), "failure \(index)")
            #expect(blocked == nil || blocked == 60)
        }
        #expect(limiter.blocked("192.0.2.1") == 60)
        #expect(limiter.blocked("192.0.2.2") == nil, "another address is not affected")
        clock.advance(59)
        #expect(limiter.blocked("192.0.2.1") == 1)
        clock.advance(1)
        #expect(limiter.blocked("192.0.2.1") == nil)
        // Blocked again: twice as long, then four times.
        for _ in 1..<10 { limiter.fail("192.0.2.1") }
        #expect(limiter.fail("192.0.2.1") == 120)
        clock.advance(120)
        for _ in 1..<10 { limiter.fail("192.0.2.1") }
        #expect(limiter.fail("192.0.2.1") == 240)
        // An hour of quiet after the block ends forgives the address.
        clock.advance(240 + 3601)
        for _ in 1..<10 { limiter.fail("192.0.2.1") }
        #expect(limiter.fail("192.0.2.1") == 60)
    }

    @Test func theLimiterForgetsTheStalestAddressesBeyondItsCapacity() {
        let clock = Clock()
        let limiter = ServeFailureLimiter(capacity: 100, now: { clock.now })
        for index in 0..<1000 {
            limiter.fail("10.0.\(index / 256).\(index % 256)")
            clock.advance(0.01)
        }
        #expect(limiter.count <= 100)
    }

    @Test func verdictsFollowPermissionsRangesAndCredentials() throws {
        let hash = try ServePasswordHash.make("viewer-pw")
        let viewer = try ServeUser(name: "viewer", passwordHash: hash, permissions: ["read"])
        let office = try ServeUser(name: "office", passwordHash: hash, permissions: ["read", "metrics"], addresses: ["10.0.0.0/8"])
        let lines = Lines()
        let policy = ServeAccessPolicy(
            users: [viewer, office], tokens: ["tok-123"], openAddresses: [.metrics: ServeAddressRange.loopback], log: { lines.append($0) })
        func verdict(_ permission: ServePermission, _ address: String, _ header: String?, query: String? = nil)
            -> ServeAccessPolicy.Verdict
        {
            policy.verdict(permission: permission, address: address, authorization: header, queryToken: query)
        }
        let right = Self.basic("viewer", "viewer-pw")
        #expect(verdict(.read, "192.0.2.1", right) == .allowed(who: .user("viewer")))
        #expect(verdict(.read, "192.0.2.1", right.replacingOccurrences(of: "Basic", with: "basic")) == .allowed(who: .user("viewer")))
        guard case .forbidden = verdict(.metrics, "192.0.2.1", right) else { Issue.record("metrics without permission"); return }
        guard case .forbidden = verdict(.playback, "192.0.2.1", right) else { Issue.record("playback without permission"); return }
        #expect(verdict(.read, "192.0.2.1", Self.basic("viewer", "wrong")) == .unauthorized)
        #expect(verdict(.read, "192.0.2.1", Self.basic("nobody", "viewer-pw")) == .unauthorized)
        #expect(verdict(.read, "192.0.2.1", nil) == .unauthorized)
        #expect(verdict(.read, "192.0.2.1", "Basic !!!") == .unauthorized)
        #expect(verdict(.metrics, "10.2.3.4", Self.basic("office", "viewer-pw")) == .allowed(who: .user("office")))
        guard case .forbidden = verdict(.read, "192.0.2.9", Self.basic("office", "viewer-pw")) else {
            Issue.record("a user outside its range was let in")
            return
        }
        // The token holds every permission, as Bearer or (where allowed) in the query.
        #expect(verdict(.admin, "192.0.2.1", "Bearer tok-123") == .allowed(who: .token(1)))
        #expect(verdict(.read, "192.0.2.1", nil, query: "tok-123") == .allowed(who: .token(1)))
        #expect(verdict(.read, "192.0.2.1", "Bearer tok-124") == .unauthorized)
        // Metrics are open to loopback without credentials.
        #expect(verdict(.metrics, "127.0.0.1", nil) == .allowed(who: .anyone))
        #expect(verdict(.read, "127.0.0.1", nil) == .unauthorized)
        // Four failures so far, one line each, with no secret in them.
        let logged = lines.all
        #expect(logged.count == 4, "\(logged)")
        #expect(logged.allSatisfy { $0.hasPrefix("onair auth: failed from 192.0.2.1 (") })
        #expect(!logged.joined().contains("wrong") && !logged.joined().contains("tok-124") && !logged.joined().contains("nobody"))
        #expect(
            ServeAccessPolicy(log: { _ in }).verdict(permission: .admin, address: "1.2.3.4", authorization: nil, queryToken: nil)
                == .allowed(who: .anyone))
    }

    @Test func twentyWrongPasswordsFromOneAddressBlockItButNotAnother() throws {
        let hash = try ServePasswordHash.make("right")
        let clock = Clock()
        let lines = Lines()
        let policy = ServeAccessPolicy(
            users: [try ServeUser(name: "alice", passwordHash: hash, permissions: ["read"])],
            limiter: ServeFailureLimiter(now: { clock.now }), log: { lines.append($0) })
        var answers: [ServeAccessPolicy.Verdict] = []
        for _ in 0..<20 {
            answers.append(
                policy.verdict(permission: .read, address: "127.0.0.1", authorization: Self.basic("alice", "wrong"), queryToken: nil))
            #expect(
                policy.verdict(permission: .read, address: "127.0.0.2", authorization: Self.basic("alice", "right"), queryToken: nil)
                    == .allowed(who: .user("alice")))
            clock.advance(1)
        }
        #expect(answers.prefix(10).allSatisfy { $0 == .unauthorized })
        #expect(answers.dropFirst(10).allSatisfy { if case .tooManyFailures = $0 { true } else { false } }, "\(answers)")
        // Even the right password waits out the block.
        #expect(
            policy.verdict(permission: .read, address: "127.0.0.1", authorization: Self.basic("alice", "right"), queryToken: nil)
                == .tooManyFailures(retryAfter: 49))  // blocked at the 10th failure (t = 9 s) for 60 s; now t = 20 s
        #expect(lines.all.filter { $0.contains("failed from 127.0.0.1 (basic)") }.count == 10)
        #expect(lines.all.contains("onair auth: blocked 127.0.0.1 for 60 s after 10 failures"))
    }

    @Test(
        .enabled(
            if: (try? Tools.run("fail2ban-regex", ["--version"]))?.status == 0,
            "fail2ban-regex is not installed (Debian's fail2ban package)"))
    func theShippedFail2banFilterMatchesTheFailureLines() throws {
        let lines = Lines()
        let policy = ServeAccessPolicy(tokens: ["t0ken"], log: { lines.append($0) })
        _ = policy.verdict(permission: .read, address: "203.0.113.5", authorization: "Bearer nope", queryToken: nil)
        _ = policy.verdict(permission: .read, address: "2001:db8::7", authorization: Self.basic("x", "y"), queryToken: nil)
        _ = policy.verdict(permission: .read, address: "198.51.100.3", authorization: nil, queryToken: "nope")
        _ = policy.verdict(permission: .read, address: "198.51.100.4", authorization: "Bearer t0ken", queryToken: nil)
        policy.recordFailure(address: "192.0.2.9", method: "rtsp-digest")  // the RTSP face's Digest failures
        let dir = try Tools.temporaryDirectory("fail2ban")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("onair.log").path
        // As onair writes them to standard error, and as the journal shows them.
        let text =
            lines.all.joined(separator: "\n") + "\n" + lines.all.map { "Dec  2 05:00:01 cam onair[812]: " + $0 }.joined(separator: "\n")
        try (text + "\nonair auth: failed from nowhere (basic)\nserve    1.0s | fps in 15.0\n").write(
            toFile: log, atomically: true, encoding: .utf8)
        let filter = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("dist/fail2ban/onair.conf").path
        let result = try Tools.run("fail2ban-regex", ["--print-all-matched", log, filter])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutText.contains("8 matched"), "\(result.stdoutText)")
        for address in ["203.0.113.5", "2001:db8::7", "198.51.100.3", "192.0.2.9"] {
            #expect(result.stdoutText.contains(address))
        }
    }
}
#endif
