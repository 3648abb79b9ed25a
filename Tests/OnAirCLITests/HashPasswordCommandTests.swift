#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// `onair hash-password`: an argon2id PHC string that verifies the password read from stdin.
@Suite struct HashPasswordCommandTests {
    @Test func theHashVerifiesThePasswordAndNoOther() throws {
        let result = try Tools.run(Tools.onairExecutable, ["hash-password"], stdin: Data("café au lait\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let hash = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hash.hasPrefix("$argon2id$v=19$") && !hash.contains("café"))
        #expect(ServePasswordHash.verify("café au lait", hash: hash))
        #expect(!ServePasswordHash.verify("café au lait\n", hash: hash))
        #expect(try ServeUser(name: "alice", passwordHash: hash, permissions: ["read"]).name == "alice")
        let empty = try Tools.run(Tools.onairExecutable, ["hash-password"], stdin: Data())
        #expect(empty.status == 2 && empty.stdout.isEmpty)
    }
}
#endif
