#if os(Linux)
import Foundation
import Testing

@testable import OnAir
@testable import OnAirServing

/// Token rotation (issue 33): the policy takes any listed token and numbers each, a reload's list
/// keeps the numbers of the tokens that stay, and the hub cuts exactly the viewers admitted by a
/// token that went, each ending as `credentialWithdrawn` at once.
@Suite struct ServeTokenRotationTests {
    static func bearer(_ policy: ServeAccessPolicy, _ token: String) -> ServeAccessPolicy.Verdict {
        policy.verdict(permission: .read, address: "192.0.2.1", authorization: "Bearer \(token)", queryToken: nil)
    }

    @Test func anyListedTokenOpensAndAReloadKeepsTheNumbersOfThoseThatStay() {
        let lines = ServeAccessTests.Lines()
        let policy = ServeAccessPolicy(tokens: ["token-A", "token-B"], log: { lines.append($0) })
        #expect(Self.bearer(policy, "token-A") == .allowed(who: .token(1)))
        #expect(Self.bearer(policy, "token-B") == .allowed(who: .token(2)))
        #expect(
            policy.verdict(permission: .read, address: "192.0.2.1", authorization: nil, queryToken: "token-B")
                == .allowed(who: .token(2)))
        #expect(Self.bearer(policy, "token-C") == .unauthorized)

        policy.setTokens(["token-B", "token-C", "token-B"])
        #expect(policy.tokens == ["token-B", "token-C"])
        #expect(Self.bearer(policy, "token-A") == .unauthorized)
        #expect(Self.bearer(policy, "token-B") == .allowed(who: .token(2)))
        #expect(Self.bearer(policy, "token-C") == .allowed(who: .token(3)))
        #expect(!policy.stillAdmits(.token(1)))
        #expect(policy.stillAdmits(.token(2)) && policy.stillAdmits(.token(3)))
        #expect(!policy.stillAdmits(.anyone))
        // A token removed and given again is a new one: its old viewers were cut with it.
        policy.setTokens(["token-A"])
        #expect(Self.bearer(policy, "token-A") == .allowed(who: .token(4)))
        // No token left and no users: open again.
        policy.setTokens([])
        #expect(policy.isOpen && policy.stillAdmits(.anyone))
        #expect(Self.bearer(policy, "anything") == .allowed(who: .anyone))
        // The failures logged name no token.
        #expect(lines.all.count == 2)
        #expect(!lines.all.joined().contains("token-"))
        #expect(ServeCredential.token(2).description == "token #2")
    }

    @Test func usersStayAdmittedAcrossATokenReload() throws {
        let user = try ServeUser(name: "alice", passwordHash: try ServePasswordHash.make("pw"), permissions: ["read"])
        let policy = ServeAccessPolicy(users: [user], tokens: ["token-A"], log: { _ in })
        policy.setTokens([])
        #expect(!policy.isOpen)
        #expect(policy.stillAdmits(.user("alice")))
        #expect(!policy.stillAdmits(.user("bob")))
        #expect(!policy.stillAdmits(.token(1)))
    }

    @Test func theHubCutsOnlyTheViewersOfAWithdrawnToken() throws {
        let hub = ServeHub(formats: [.mpegTS, .elementary])
        hub.publish(ServeHubTests.chunk(10, key: true), to: .mpegTS)
        hub.publish(ServeHubTests.chunk(10, key: true), to: .elementary)
        let onA = try hub.openViewer(format: .mpegTS, transport: "http", peer: "a", credential: .token(1))
        let onB = try hub.openViewer(format: .mpegTS, transport: "http", peer: "b", credential: .token(2))
        let rtspOnA = try hub.openViewer(format: .elementary, transport: "rtsp", peer: "r", credential: .token(1))
        let user = try hub.openViewer(format: .mpegTS, transport: "srt", peer: "u", credential: .user("alice"))

        #expect(hub.statistics().viewers.map(\.admittedBy) == ["token #1", "token #2", "token #1", "user alice"])
        #expect(hub.cutViewers { $0 != .token(1) } == 2)
        #expect(hub.cutViewers { $0 != .token(1) } == 0)  // already cut: not counted twice
        var buffer = [UInt8](repeating: 0, count: 64)
        // Cut at once, its queued bytes dropped; the others read on.
        #expect(buffer.withUnsafeMutableBytes { onA.read(into: $0, wait: 0) } == .cut)
        guard case .cut = rtspOnA.readChunk(wait: 0) else {
            Issue.record("the RTSP viewer of the removed token was not cut")
            return
        }
        #expect(buffer.withUnsafeMutableBytes { onB.read(into: $0, wait: 0) } == .bytes(10))
        #expect(buffer.withUnsafeMutableBytes { user.read(into: $0, wait: 0) } == .bytes(10))
        hub.publish(ServeHubTests.chunk(5, key: false), to: .mpegTS)
        #expect(buffer.withUnsafeMutableBytes { onB.read(into: $0, wait: 0) } == .bytes(5))
        #expect(onA.endReason == .credentialWithdrawn)
        // A transport backed up (RTSP waiting on its own sending) learns it without reading.
        #expect(rtspOnA.cutIfTooFarBehind())
        #expect(!onB.cutIfTooFarBehind())
        #expect(onB.endReason == nil)

        onA.close()
        rtspOnA.close()
        let totals = hub.statistics().totals
        #expect(totals.viewers == 2)
        #expect(totals.cutCredentialWithdrawn == 2)
        #expect(totals.cutTooSlow == 0)
        onB.close()
        user.close()
    }
}

extension ServeTokenRotationTests {
    @Test func aViewerLetInWithATokenAReloadJustWithdrewIsRefused() throws {
        let policy = ServeAccessPolicy(tokens: ["token-A"], log: { _ in })
        let hub = ServeHub(formats: [.mpegTS])
        hub.setCredentialCheck { policy.stillAdmits($0) }
        // The verdict came before the reload, the admission after it.
        guard case .allowed(let credential) = Self.bearer(policy, "token-A") else {
            Issue.record("token A refused")
            return
        }
        policy.setTokens(["token-B"])
        #expect(throws: ServeRefusal.credentialWithdrawn) {
            _ = try hub.openViewer(format: .mpegTS, transport: "http", peer: "late", credential: credential)
        }
        let onB = try hub.openViewer(format: .mpegTS, transport: "http", peer: "b", credential: .token(2))
        #expect(hub.statistics().totals.viewers == 1)
        onB.close()
    }
}
#endif
