#if os(Linux)
import Foundation
import OnAirServeConfig
import Testing

@testable import OnAirServing

/// The RTSP face's side of the access policy, on a policy with a fixed clock: users' Basic
/// credentials judged by the policy (permission, range, password), key numbers that tell tokens,
/// users and open access apart, failed Digest logins counted per address, and where plain RTSP
/// listens beside RTSPS.
@Suite struct ServeRTSPAccessTests {
    static func policy(log: @escaping @Sendable (String) -> Void = { _ in }) throws -> ServeAccessPolicy {
        ServeAccessPolicy(
            users: [
                try ServeUser(name: "alice", passwordHash: try ServePasswordHash.make("alice-pw"), permissions: ["read"]),
                try ServeUser(
                    name: "near", passwordHash: try ServePasswordHash.make("near-pw"), permissions: ["read"], addresses: ["10.0.0.0/8"]),
                try ServeUser(name: "meter", passwordHash: try ServePasswordHash.make("meter-pw"), permissions: ["metrics"]),
            ],
            tokens: ["t1", "t2"], limiter: ServeFailureLimiter(threshold: 3, now: { 100 }), log: log)
    }

    static func basic(_ credentials: String) -> String { "Basic " + Data(credentials.utf8).base64EncodedString() }

    @Test func usersGetTheirOwnKeyNumbersAndOnlyWithReadFromTheirRanges() throws {
        let access = ServeRTSPAccess()
        #expect(access.checkBasic(Self.basic("alice:alice-pw"), peer: "127.0.0.1") == nil)  // no policy yet
        access.set(try Self.policy())
        let alice = try #require(access.checkBasic(Self.basic("alice:alice-pw"), peer: "127.0.0.1"))
        #expect(alice >= ServeRTSPAccess.firstUserNumber)
        #expect(access.credential(forKey: alice) == .user("alice"))
        #expect(access.checkBasic(Self.basic("alice:alice-pw"), peer: "192.0.2.1") == alice)  // the same number again
        #expect(access.checkBasic(Self.basic("near:near-pw"), peer: "127.0.0.1") == nil)  // outside near's range
        #expect(access.checkBasic(Self.basic("near:near-pw"), peer: "10.1.2.3").map { access.credential(forKey: $0) } == .user("near"))
        #expect(access.checkBasic(Self.basic("meter:meter-pw"), peer: "127.0.0.1") == nil)  // no `read`
        #expect(access.checkBasic(Self.basic("alice:wrong"), peer: "127.0.0.1") == nil)
        // Tokens keep their own numbers; 0 and the open number are anyone; a number never given is no one.
        #expect(access.credential(forKey: 2) == .token(2))
        #expect(access.credential(forKey: 0) == .anyone)
        #expect(access.credential(forKey: ServeRTSPAccess.anyoneNumber) == .anyone)
        #expect(access.credential(forKey: ServeRTSPAccess.firstUserNumber + 99) == .user("", revision: 0))
        #expect(access.hasUsers)
    }

    @Test func failedLoginsAreLoggedAndCountedUntilTheAddressIsBlocked() throws {
        let lines = Lines()
        let access = ServeRTSPAccess()
        access.set(try Self.policy(log: { lines.append($0) }))
        access.failed(peer: "192.0.2.7", scheme: "digest")
        #expect(!access.isBlocked("192.0.2.7"))
        _ = access.checkBasic(Self.basic("alice:wrong"), peer: "192.0.2.7")
        access.failed(peer: "192.0.2.7", scheme: "digest")
        #expect(access.isBlocked("192.0.2.7"))
        #expect(!access.isBlocked("192.0.2.8"))
        #expect(lines.all.contains("onair auth: failed from 192.0.2.7 (rtsp-digest)"))
        #expect(lines.all.contains("onair auth: failed from 192.0.2.7 (basic)"))
        #expect(lines.all.contains { $0.hasPrefix("onair auth: blocked 192.0.2.7 for ") })
        #expect(!lines.all.joined().contains("wrong"))
    }

    @Test func plainRTSPBesideRTSPSListensOnLoopbackUnlessToldOtherwise() {
        var configuration = ServeConfiguration()
        configuration.host = "0.0.0.0"
        #expect(ServeRTSPFace.plainHost(configuration, tls: false) == "0.0.0.0")
        #expect(ServeRTSPFace.plainHost(configuration, tls: true) == "127.0.0.1")
        configuration.host = "::"
        #expect(ServeRTSPFace.plainHost(configuration, tls: true) == "::1")
        configuration.host = "127.0.0.1"
        #expect(ServeRTSPFace.plainHost(configuration, tls: true) == "127.0.0.1")
        configuration.host = "192.0.2.1"
        configuration.rtspPlain = .on
        #expect(ServeRTSPFace.plainHost(configuration, tls: true) == "192.0.2.1")
        configuration.rtspPlain = .off
        #expect(ServeRTSPFace.plainHost(configuration, tls: true) == nil)
        #expect(ServeRTSPFace.plainHost(configuration, tls: false) == "192.0.2.1")
    }
}
#endif
