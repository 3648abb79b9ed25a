#if os(Linux)
import Foundation
import Testing

@testable import OnAir
@testable import OnAirServing

/// A reload of `users:` (issue 33): a viewer admitted by a user who was removed, whose password
/// changed or who lost `read` is cut; the viewers of unchanged users (and of a user who only gained
/// a permission or changed address ranges) stay; a password verified before the reload is checked
/// again.
@Suite struct ServeUserReloadTests {
    static func user(_ name: String, _ hash: String, _ permissions: [String] = ["read"], addresses: [String] = []) throws -> ServeUser {
        try ServeUser(name: name, passwordHash: hash, permissions: permissions, addresses: addresses)
    }

    @Test func theRosterWithdrawsRemovedUsersNewPasswordsAndLostReadOnly() throws {
        let (one, two) = (try ServePasswordHash.make("pw-1"), try ServePasswordHash.make("pw-2"))
        var roster = ServeUserRoster([
            try Self.user("alice", one), try Self.user("bob", one), try Self.user("carol", one, ["read", "metrics"]),
            try Self.user("dave", one, ["metrics"]), try Self.user("erin", one), try Self.user("fred", one),
        ])
        #expect(roster.admits("alice", revision: 1) && !roster.admits("dave", revision: 1))
        let withdrawn = roster.update(to: [
            try Self.user("alice", two),  // a new password
            try Self.user("carol", one, ["metrics"]),  // lost read
            try Self.user("dave", one, ["metrics", "read"]),  // gained read
            try Self.user("erin", one, addresses: ["10.0.0.0/8"]),  // address ranges changed
            try Self.user("fred", one, ["read", "admin"]),  // gained a permission
            try Self.user("gina", one),  // new
        ])  // bob removed
        #expect(withdrawn == ["alice", "bob", "carol"])
        #expect(!roster.admits("alice", revision: 1) && roster.admits("alice", revision: 2))
        #expect(!roster.admits("bob", revision: 1) && roster.revision(of: "bob") == nil)
        #expect(!roster.admits("carol", revision: 1) && !roster.admits("carol", revision: 2))
        #expect(roster.admits("dave", revision: 1) && roster.admits("erin", revision: 1) && roster.admits("fred", revision: 1))
        #expect(roster.admits("gina", revision: 1))
        // Bob given again is a new entry: nothing admitted before his removal comes back.
        #expect(roster.update(to: [try Self.user("bob", one)]).count == 6)
        #expect(roster.revision(of: "bob") == 2 && !roster.admits("bob", revision: 1))
        #expect(roster.users.map(\.name) == ["bob"])
    }

    @Test func aReloadCutsTheViewersOfAChangedPasswordAndChecksThePasswordAgain() throws {
        let (one, two) = (try ServePasswordHash.make("pw-1"), try ServePasswordHash.make("pw-2"))
        let policy = ServeAccessPolicy(
            users: [try Self.user("alice", one), try Self.user("bob", one)], tokens: ["token-A"], log: { _ in })
        let hub = ServeHub(formats: [.mpegTS])
        hub.setCredentialCheck { policy.stillAdmits($0) }
        hub.publish(ServeHubTests.chunk(10, key: true), to: .mpegTS)
        func verdict(_ name: String, _ password: String) -> ServeAccessPolicy.Verdict {
            policy.verdict(permission: .read, address: "192.0.2.1", authorization: ServeAccessTests.basic(name, password), queryToken: nil)
        }
        #expect(verdict("alice", "pw-1") == .allowed(who: .user("alice", revision: 1)))
        let alice = try hub.openViewer(format: .mpegTS, transport: "http", peer: "a", credential: .user("alice", revision: 1))
        let bob = try hub.openViewer(format: .mpegTS, transport: "http", peer: "b", credential: .user("bob", revision: 1))
        let token = try hub.openViewer(format: .mpegTS, transport: "http", peer: "t", credential: .token(1))

        #expect(policy.setUsers([try Self.user("alice", two), try Self.user("bob", one)]) == ["alice"])
        #expect(hub.cutViewers { policy.stillAdmits($0) } == 1)
        #expect(alice.endReason == .credentialWithdrawn)
        #expect(bob.endReason == nil && token.endReason == nil)
        // The old password was remembered as verified: no longer.
        #expect(verdict("alice", "pw-1") == .unauthorized)
        #expect(verdict("alice", "pw-2") == .allowed(who: .user("alice", revision: 2)))
        // A verdict given before the reload cannot open a viewer after it.
        #expect(throws: ServeRefusal.credentialWithdrawn) {
            _ = try hub.openViewer(format: .mpegTS, transport: "http", peer: "late", credential: .user("alice", revision: 1))
        }
        // Removing every user and token opens the server: the viewers admitted as anyone from then on stay.
        policy.setTokens([])
        policy.setUsers([])
        #expect(policy.isOpen && !policy.stillAdmits(.user("bob", revision: 1)))
        #expect(hub.cutViewers { policy.stillAdmits($0) } == 2)
        for viewer in [alice, bob, token] { viewer.close() }
        #expect(hub.statistics().totals.cutCredentialWithdrawn == 3)
    }
}
#endif
