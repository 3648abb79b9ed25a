#if os(Linux)
import Foundation
import OnAirCore
import OnAirServing
import Testing

/// `RTSPKeyring` on header values and times given to it, with a counting random source: Digest
/// for each key, every way a Digest request can be wrong, the nonces' lifetime and capacity,
/// Basic only where allowed, key rotation, and malformed values refused without a crash.
/// (ServeTokenReloadTests and ServeRTSPTests run it behind `onair serve` with ffmpeg.)
@Suite struct RTSPKeyringTests {
    /// 1, 2, 3, …: nonces that can be written down.
    struct Counting: RandomNumberGenerator {
        var last: UInt64 = 0
        mutating func next() -> UInt64 {
            last += 1
            return last
        }
    }

    static let keys = [RTSPKeyring.Key(number: 1, password: "first-secret"), RTSPKeyring.Key(number: 2, password: "second-secret")]
    static let uri = "rtsp://127.0.0.1:8554/live"

    /// A keyring with both keys that has challenged once at `now`: its nonce.
    static func challenged(allowBasic: Bool = false, now: Double = 0) -> (RTSPKeyring, String) {
        var keyring = RTSPKeyring(user: "onair", allowBasic: allowBasic, keys: keys)
        var random = Counting()
        _ = keyring.challenge(now: now, using: &random)
        return (keyring, "00000000000000010000000000000002")
    }

    /// A Digest value for `password`, as ffmpeg writes it.
    static func digest(
        _ password: String, nonce: String, method: String = "DESCRIBE", user: String = "onair", realm: String = "onair",
        extra: String = ""
    ) -> String {
        let response = RTSPKeyring.digestResponse(user: user, realm: realm, password: password, method: method, uri: uri, nonce: nonce)
        return "Digest username=\"\(user)\", realm=\"\(realm)\", nonce=\"\(nonce)\", uri=\"\(uri)\", response=\"\(response)\"\(extra)"
    }

    static func basic(_ credentials: String) -> String {
        "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    @Test func aChallengeIsDigestWithANewNonceAndBasicOnlyWhereAllowed() {
        var random = Counting()
        var closed = RTSPKeyring(user: "onair", keys: Self.keys)
        #expect(closed.challenge(now: 0, using: &random) == ["Digest realm=\"onair\", nonce=\"00000000000000010000000000000002\""])
        var open = RTSPKeyring(user: "onair", allowBasic: true, keys: Self.keys)
        #expect(
            open.challenge(now: 0, using: &random) == [
                "Digest realm=\"onair\", nonce=\"00000000000000030000000000000004\"", "Basic realm=\"onair\"",
            ])
        #expect(closed.nonceCount == 1 && open.nonceCount == 1)
        // The system's random source: 32 hexadecimal digits, a new nonce each time.
        let first = closed.challenge(now: 0), second = closed.challenge(now: 0)
        #expect(first != second && first[0].count == "Digest realm=\"onair\", nonce=\"\"".count + 32)
    }

    @Test func digestAdmitsEachKeyWithItsNumber() {
        let (keyring, nonce) = Self.challenged()
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("first-secret", nonce: nonce)], now: 1) == 1)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("second-secret", nonce: nonce)], now: 1) == 2)
        let play = Self.digest("second-secret", nonce: nonce, method: "PLAY")
        #expect(keyring.admit(method: "PLAY", authorizationHeaders: [play], now: 2) == 2)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [], now: 1) == 0)
    }

    @Test func aDigestRequestWrongInAnyPartIsRefused() {
        let (keyring, nonce) = Self.challenged()
        let refused = [
            Self.digest("third-secret", nonce: nonce),  // no key's password
            Self.digest("first-secret", nonce: nonce, method: "PLAY"),  // computed for another method
            Self.digest("first-secret", nonce: nonce, user: "admin"),
            Self.digest("first-secret", nonce: nonce, realm: "other"),
            Self.digest("first-secret", nonce: "00000000000000010000000000000003"),  // not issued here
            Self.digest("first-secret", nonce: nonce, extra: ", algorithm=SHA-256"),
            Self.digest("first-secret", nonce: nonce, extra: ", qop=auth, nc=00000001, cnonce=\"x\""),
            Self.digest("first-secret", nonce: nonce).uppercased(),  // the response in capitals
            "Digest username=\"onair\", realm=\"onair\", nonce=\"\(nonce)\", uri=\"\(Self.uri)\"",  // no response
        ]
        for header in refused {
            #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [header], now: 1) == 0, "\(header)")
        }
        #expect(keyring.admit(method: "", authorizationHeaders: [Self.digest("first-secret", nonce: nonce, method: "")], now: 1) == 0)
        // Stated explicitly, MD5 is the default.
        let md5 = Self.digest("first-secret", nonce: nonce, extra: ", algorithm=\"MD5\"")
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [md5], now: 1) == 1)
    }

    @Test func aNonceIsGoodForItsLifetimeAndNoLonger() {
        let (keyring, nonce) = Self.challenged(now: 10)
        let header = Self.digest("first-secret", nonce: nonce)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [header], now: 10 + RTSPKeyring.nonceLifetime) == 1)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [header], now: 10 + RTSPKeyring.nonceLifetime + 0.001) == 0)
    }

    @Test func atCapacityExpiredNoncesGoFirstThenAll() {
        var keyring = RTSPKeyring(user: "onair", keys: Self.keys)
        var random = Counting()
        _ = keyring.challenge(now: 200, using: &random)
        let kept = "00000000000000010000000000000002"
        for _ in 1..<RTSPKeyring.nonceCapacity { _ = keyring.challenge(now: 0, using: &random) }
        #expect(keyring.nonceCount == RTSPKeyring.nonceCapacity)
        // At 301 s the ones from 0 s have expired: only they go.
        _ = keyring.challenge(now: 301, using: &random)
        #expect(keyring.nonceCount == 2)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("first-secret", nonce: kept)], now: 301) == 1)
        // Full again with none expired: all go, and the new one is the only one kept.
        for _ in 2..<RTSPKeyring.nonceCapacity { _ = keyring.challenge(now: 301, using: &random) }
        #expect(keyring.nonceCount == RTSPKeyring.nonceCapacity)
        _ = keyring.challenge(now: 302, using: &random)
        #expect(keyring.nonceCount == 1)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("first-secret", nonce: kept)], now: 302) == 0)
    }

    @Test func basicIsAcceptedOnlyWhereAllowed() {
        let (closed, _) = Self.challenged()
        let (open, _) = Self.challenged(allowBasic: true)
        #expect(closed.admit(method: "DESCRIBE", authorizationHeaders: [Self.basic("onair:second-secret")], now: 0) == 0)
        #expect(open.admit(method: "DESCRIBE", authorizationHeaders: [Self.basic("onair:second-secret")], now: 0) == 2)
        #expect(open.admit(method: "DESCRIBE", authorizationHeaders: [Self.basic("onair:first-secret")], now: 0) == 1)
        #expect(open.admit(method: "DESCRIBE", authorizationHeaders: [Self.basic("onair:wrong")], now: 0) == 0)
        #expect(open.admit(method: "DESCRIBE", authorizationHeaders: [Self.basic("admin:first-secret")], now: 0) == 0)
        // Only the first colon separates: the rest is the password.
        let colon = RTSPKeyring(user: "onair", allowBasic: true, keys: [RTSPKeyring.Key(number: 3, password: "a:b")])
        #expect(colon.admit(method: "PLAY", authorizationHeaders: [Self.basic("onair:a:b")], now: 0) == 3)
    }

    @Test func wrongCredentialsForUsAreARefusalStaleOrOtherUsersAreNot() {
        let (keyring, nonce) = Self.challenged(allowBasic: true)
        func refusal(_ header: String, now: Double = 1) -> String? {
            keyring.refusal(method: "DESCRIBE", authorizationHeaders: [header], now: now)
        }
        #expect(refusal(Self.digest("wrong", nonce: nonce)) == "digest")
        #expect(refusal(Self.digest("first-secret", nonce: nonce)) == nil)  // admitted
        #expect(refusal(Self.basic("onair:wrong")) == "basic")
        // An expired or unknown nonce is stale (a session kept alive past it), not a failed login.
        #expect(refusal(Self.digest("wrong", nonce: nonce), now: RTSPKeyring.nonceLifetime + 2) == nil)
        #expect(refusal(Self.digest("wrong", nonce: "ffffffffffffffffffffffffffffffff")) == nil)
        // Basic for another user is for the owner's users to judge.
        #expect(refusal(Self.basic("alice:whatever")) == nil)
        #expect(refusal("Bearer x") == nil)
        let closed = RTSPKeyring(user: "onair", allowBasic: false, keys: Self.keys)
        #expect(closed.refusal(method: "DESCRIBE", authorizationHeaders: [Self.basic("onair:wrong")], now: 0) == nil)
    }

    @Test func aBasicOnlyKeyringChallengesWithBasicAloneAndStillChecksDigest() {
        var keyring = RTSPKeyring(user: "onair", allowBasic: true, offersDigest: false, keys: Self.keys)
        var random = Counting()
        #expect(keyring.challenge(now: 0, using: &random) == ["Basic realm=\"onair\""])
        // The nonce is still issued and kept: a Digest answer to it is checked.
        let nonce = "00000000000000010000000000000002"
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("second-secret", nonce: nonce)], now: 1) == 2)
        // Without Basic allowed, Digest is always offered.
        var clear = RTSPKeyring(user: "onair", allowBasic: false, offersDigest: false, keys: Self.keys)
        #expect(clear.challenge(now: 0, using: &random).first?.hasPrefix("Digest ") == true)
    }

    @Test func newKeysReplaceTheOldOnesAndNoncesStayGood() {
        var (keyring, nonce) = Self.challenged()
        keyring.setKeys([RTSPKeyring.Key(number: 3, password: "third-secret"), RTSPKeyring.Key(number: 0, password: "ignored")])
        #expect(keyring.keys == [RTSPKeyring.Key(number: 3, password: "third-secret")])
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("first-secret", nonce: nonce)], now: 1) == 0)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("third-secret", nonce: nonce)], now: 1) == 3)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [Self.digest("ignored", nonce: nonce)], now: 1) == 0)
    }

    @Test func theFirstValueThatAdmitsDecidesAmongTheFirstEight() {
        let (keyring, nonce) = Self.challenged(allowBasic: true)
        let good = Self.digest("second-secret", nonce: nonce)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: ["Digest ,", Self.basic("onair:wrong"), good], now: 1) == 2)
        let padding = Array(repeating: "Bearer x", count: RTSPKeyring.maximumHeaders - 1)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: padding + [good], now: 1) == 2)
        #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: padding + ["Bearer y", good], now: 1) == 0)
    }

    @Test func digestParametersAreReadAsWritten() {
        #expect(
            RTSPCredential("dIgEsT  UserName = \"on\\\"air\\\\\" ,realm=onair,\tnonce=\"\" ")
                == .digest(["username": "on\"air\\", "realm": "onair", "nonce": ""]))
        #expect(RTSPCredential("Digest uri=rtsp://h:1/live?a=b") == .digest(["uri": "rtsp://h:1/live?a=b"]))
        #expect(RTSPCredential("  basic b25haXI6cw==") == .basic(user: "onair", password: "s"))
        #expect(RTSPCredential("Basic Om5vIHVzZXI=") == .basic(user: "", password: "no user"))
    }

    @Test func malformedValuesAreRefused() {
        let many = (0...RTSPCredential.maximumParameters).map { "p\($0)=1" }.joined(separator: ", ")
        let malformed = [
            "", "Digest", "Digest ", "Digest username", "Digest username=", "Digest username=\"onair",
            "Digest username=\"onair\\", "Digest a=1,,b=2", "Digest a=1 b=2", "Digest a=1,", "Digest a=1, A=2", "Digest =1",
            "Digest a=\"x\u{1}y\"", "Digest a=\"x\u{7F}\"", "Digest a=\"x\\\u{0}\"", "Digest a=1\u{0}", "Digest a=b\"c\"", many,
            "Digest a=\"" + String(repeating: "x", count: RTSPCredential.maximumBytes) + "\"", "Digestusername=\"onair\"",
            "Basic", "Basic ", "Basic !!!!", "Basic " + Data("no colon".utf8).base64EncodedString(), "Basic b25h aXI6cw==",
            "Basic " + Data([0x6F, 0x3A, 0xFF, 0xFE]).base64EncodedString(), "Bearer token", "Negotiate abc", "\u{FEFF}Digest a=1",
        ]
        let (keyring, _) = Self.challenged(allowBasic: true)
        for header in malformed {
            #expect(RTSPCredential(header) == nil, "\(header.prefix(80))")
            #expect(keyring.admit(method: "DESCRIBE", authorizationHeaders: [header], now: 1) == 0)
        }
        // Just within the limit, a long value is still read.
        let longest = "Digest a=\"" + String(repeating: "x", count: RTSPCredential.maximumBytes - 11) + "\""
        #expect(longest.utf8.count == RTSPCredential.maximumBytes && RTSPCredential(longest) != nil)
    }
}
#endif
