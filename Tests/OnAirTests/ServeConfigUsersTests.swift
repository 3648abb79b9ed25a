#if os(Linux)
import OnAirServeConfig
import Testing

@testable import OnAirServing

/// `users:` in the serve config file becomes the access policy's users; mistakes name file, line and key.
@Suite struct ServeConfigUsersTests {
    static func resolve(_ text: String) throws -> ServeConfigResolution {
        try ServeConfigResolution(
            root: ServeConfigReader.parse(Array(text.utf8), name: "t.yml"), file: "t.yml", environment: [:], commandLine: [])
    }

    @Test func usersWithHashesPermissionsAndRangesAreTakenAsTheyAreWritten() throws {
        let hash = try ServePasswordHash.make("correct horse")
        let text = """
            max-viewers: 4
            users:
              - name: alice
                password: "\(hash)"
                permissions: [read, playback]
                addresses: [192.168.1.0/24]
              - name: ops
                password: "\(hash)"
                permissions: metrics

            """
        var configuration = ServeConfiguration()
        try configuration.apply(Self.resolve(text))
        #expect(configuration.users.map(\.name) == ["alice", "ops"])
        #expect(configuration.users[0].permissions == [.read, .playback] && configuration.users[1].permissions == [.metrics])
        #expect(configuration.users[0].admits("192.168.1.9") && !configuration.users[0].admits("10.0.0.1"))
        #expect(configuration.users[1].admits("10.0.0.1"))
    }

    @Test func aBadUserIsRefusedWithFileLineAndKey() throws {
        for (text, words) in [
            ("users:\n  - name: bob\n    permissions: [read]\n", "t.yml:2: key 'users': each user needs a name and a password"),
            ("users:\n  - name: bob\n    password: x\n    permissions: [fly]\n", "t.yml:2: key 'users'"),
            ("users:\n  - name: bob\n    password: x\n    colour: red\n", "t.yml:4: key 'users': unknown field 'colour'"),
            ("users: alice\n", "t.yml:1: key 'users': takes a list of users"),
        ] {
            var configuration = ServeConfiguration()
            #expect(throws: ServeConfigError.self, "\(text)") { try configuration.apply(Self.resolve(text)) }
            do { try configuration.apply(Self.resolve(text)) } catch { #expect("\(error)".contains(words), "\(error)") }
        }
    }
}
#endif
