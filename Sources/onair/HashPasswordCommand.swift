#if os(Linux)
import Foundation
import OnAir

/// `onair hash-password`: the argon2id hash of a password read from standard input, for a user of
/// `onair serve` (the config file's `users:`), so the password itself is stored nowhere.
struct HashPasswordCommand: Command {
    static let name = "hash-password"
    static let summary = "print the argon2id hash of a password read from stdin (for serve's users)"
    static let help = """
        Usage: onair hash-password < FILE        (or type it, then Enter)

        Reads one password from standard input (its first line, without the line end) and prints its
        argon2id hash in the PHC string format ($argon2id$v=19$m=19456,t=2,p=1$SALT$HASH), with a new
        random salt each time. Put the hash, never the password, in the config file's users:

          users:
            - name: alice
              password: "$argon2id$v=19$…"
              permissions: [read, playback]

        """

    init(arguments: inout ArgumentList) throws {
        guard arguments.positionals().isEmpty else { throw UsageError("hash-password reads the password from stdin, not arguments") }
    }

    func run() throws -> Int32 {
        var data = Data()
        while data.count <= ServePasswordHash.maximumPasswordBytes + 2, !data.contains(UInt8(ascii: "\n")) {
            guard let chunk = try FileHandle.standardInput.read(upToCount: 256), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        var line = data.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard let password = String(data: line, encoding: .utf8) else { throw UsageError("the password is not UTF-8") }
        do {
            print(try ServePasswordHash.make(password))
        } catch {
            throw UsageError("\(error)")
        }
        return 0
    }
}
#endif
