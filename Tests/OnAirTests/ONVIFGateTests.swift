#if os(Linux)
import Foundation
import OnAirCore
import OnAirServing
import Testing

/// `ONVIFGate` with the clocks given to it: UsernameToken digests (right, wrong, replayed, out of
/// the created window), text passwords only over TLS, and HTTP Digest against its own nonces.
@Suite struct ONVIFGateTests {
    struct Counting: RandomNumberGenerator {
        var last: UInt64 = 0
        mutating func next() -> UInt64 {
            last += 1
            return last
        }
    }

    static let gate = ONVIFGate(accounts: [
        .init(user: "onair", password: "s3cret", number: 1), .init(user: "nvr", password: "p", number: 2),
    ])
    static let wall = Date(timeIntervalSince1970: 1_796_407_200)  // 2026-12-04T18:00:00Z

    static func token(password: String = "s3cret", nonce: String = "nonce-1", created: String = "2026-12-04T18:00:03Z") -> WSUsernameToken {
        let bytes = Array(nonce.utf8)
        return WSUsernameToken(
            username: "onair", password: WSUsernameToken.digest(password: password, nonce: bytes, created: created), isDigest: true,
            nonce: bytes, created: created)
    }

    /// The digest of WSS's UsernameToken profile, section 3.1, computed as ONVIF's core spec shows it.
    @Test func digestAsTheSpecDefinesIt() {
        let nonce = Array(Data(base64Encoded: "LKqI6G/AikKCQrN0zqZFlg==")!)
        #expect(
            WSUsernameToken.digest(password: "userpassword", nonce: nonce, created: "2010-09-16T07:50:45Z")
                == "tuOSpGlFlIXsozq4HFNeeGeFLEI=")
    }

    @Test func admitsADigestOnceAndRefusesItsReplay() {
        var gate = Self.gate
        #expect(gate.check(Self.token(), wall: Self.wall, now: 0, secure: false) == .admitted(user: "onair", number: 1))
        #expect(gate.check(Self.token(), wall: Self.wall, now: 2, secure: false) == .replayed)
        #expect(gate.check(Self.token(nonce: "nonce-2"), wall: Self.wall, now: 1, secure: false) == .admitted(user: "onair", number: 1))
        // libonvif's way: one nonce, a fresh Created (so a new digest) on each request.
        let again = Self.token(nonce: "nonce-2", created: "2026-12-04T18:00:04Z")
        #expect(gate.check(again, wall: Self.wall, now: 1, secure: false) == .admitted(user: "onair", number: 1))
        #expect(gate.check(again, wall: Self.wall, now: 2.5, secure: false) == .replayed)
        // Its requests within one millisecond share a token: again from the same address within a
        // second, never from elsewhere nor later.
        let shared = Self.token(nonce: "nonce-3", created: "2026-12-04T18:00:05.123Z")
        #expect(gate.check(shared, from: "192.0.2.9", wall: Self.wall, now: 1, secure: false) == .admitted(user: "onair", number: 1))
        #expect(gate.check(shared, from: "192.0.2.9", wall: Self.wall, now: 1.5, secure: false) == .admitted(user: "onair", number: 1))
        #expect(gate.check(shared, from: "192.0.2.66", wall: Self.wall, now: 1.5, secure: false) == .replayed)
        #expect(gate.check(shared, from: "192.0.2.9", wall: Self.wall, now: 2.1, secure: false) == .replayed)
        #expect(gate.check(Self.token(password: "wrong", nonce: "nonce-9"), wall: Self.wall, now: 2, secure: false) == .wrong)
        #expect(gate.check(Self.token(nonce: "n4", created: "2026-12-04T17:54:59Z"), wall: Self.wall, now: 2, secure: false) == .stale)
        #expect(gate.check(Self.token(nonce: "n5", created: "2026-12-04T18:04:59Z"), wall: Self.wall, now: 2, secure: false) != .stale)
        #expect(gate.check(Self.token(nonce: "n6", created: "not a time"), wall: Self.wall, now: 2, secure: false) == .wrong)
    }

    @Test func takesTextPasswordsOnlyOverTLS() {
        var gate = Self.gate
        let text = WSUsernameToken(username: "nvr", password: "p", isDigest: false, nonce: [], created: nil)
        #expect(gate.check(text, wall: Self.wall, now: 0, secure: false) == .plainTextRefused)
        #expect(gate.check(text, wall: Self.wall, now: 0, secure: true) == .admitted(user: "nvr", number: 2))
        var wrong = text
        wrong.password = "q"
        #expect(gate.check(wrong, wall: Self.wall, now: 0, secure: true) == .wrong)
    }

    @Test func httpDigestAgainstItsOwnNonces() {
        var gate = Self.gate
        var random = Counting()
        let challenge = gate.challenge(now: 10, using: &random)
        let nonce = "00000000000000010000000000000002"
        #expect(challenge == "Digest realm=\"onair\", nonce=\"\(nonce)\", algorithm=MD5")
        func header(_ user: String, _ password: String, nonce: String = nonce) -> String {
            let response = RTSPKeyring.digestResponse(
                user: user, realm: "onair", password: password, method: "GET", uri: "/onvif/snapshot.jpg", nonce: nonce)
            return "Digest username=\"\(user)\", realm=\"onair\", nonce=\"\(nonce)\", uri=\"/onvif/snapshot.jpg\", response=\"\(response)\""
        }
        #expect(gate.check(authorization: [header("nvr", "p")], method: "GET", now: 11) == .admitted(user: "nvr", number: 2))
        #expect(gate.check(authorization: [header("nvr", "x")], method: "GET", now: 11) == .wrong)
        #expect(gate.check(authorization: [header("nvr", "p", nonce: "feed")], method: "GET", now: 11) == .wrong)
        #expect(gate.check(authorization: [header("nvr", "p")], method: "GET", now: 10 + 301) == .wrong)
        #expect(gate.check(authorization: [], method: "GET", now: 11) == .missing)
    }
}
#endif
