#if os(Linux)
import CArgon2

/// argon2id password hashes in the PHC string format (`$argon2id$v=19$m=…,t=…,p=…$SALT$HASH`),
/// made and checked by libargon2, whose check compares in constant time.
public enum ServePasswordHash {
    /// Memory in KiB, passes and lanes of new hashes: OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane),
    /// about 30 ms on one core, so a check is cheap for a user and slow for a guesser.
    public static let memoryKiB: UInt32 = 19 * 1024
    /// Passes over the memory.
    public static let passes: UInt32 = 2
    /// Lanes.
    public static let lanes: UInt32 = 1
    /// The longest password taken (bytes).
    public static let maximumPasswordBytes = 1024
    /// The most memory a stored hash may ask for when checked (KiB): 256 MiB.
    public static let maximumMemoryKiB = 256 * 1024

    /// A new hash of `password` with a random 16-byte salt.
    public static func make(_ password: String) throws -> String {
        let bytes = Array(password.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPasswordBytes else {
            throw ServeAuthError("the password must be 1–\(maximumPasswordBytes) bytes")
        }
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &generator) }
        let hashLength = 32
        let length = argon2_encodedlen(passes, memoryKiB, lanes, UInt32(salt.count), UInt32(hashLength), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let code = argon2id_hash_encoded(
            passes, memoryKiB, lanes, bytes, bytes.count, salt, salt.count, hashLength, &encoded, encoded.count)
        guard code == ARGON2_OK.rawValue else { throw ServeAuthError("argon2id: \(String(cString: argon2_error_message(code)))") }
        return String(decoding: encoded.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Checks that `hash` is an argon2id PHC string OnAir will verify (and not, say, a password
    /// pasted in its place); throws saying what is wrong.
    public static func validate(_ hash: String) throws {
        let fields = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard hash.utf8.count <= 512, fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == "v=19" else {
            throw ServeAuthError("a password must be an argon2id hash from `onair hash-password` ($argon2id$v=19$…), never the password")
        }
        var parameters: [Substring: Int] = [:]
        for item in fields[3].split(separator: ",") {
            let pair = item.split(separator: "=")
            guard pair.count == 2, let value = Int(pair[1]) else { throw ServeAuthError("argon2id hash: bad parameter '\(item)'") }
            parameters[pair[0]] = value
        }
        guard let memory = parameters["m"], let passes = parameters["t"], let lanes = parameters["p"],
            (8...maximumMemoryKiB).contains(memory), (1...16).contains(passes), (1...16).contains(lanes)
        else {
            throw ServeAuthError("argon2id hash: m (8–\(maximumMemoryKiB) KiB), t (1–16) and p (1–16) are needed")
        }
    }

    /// Whether `password` matches `hash` (a hash `validate` takes; anything else: false).
    public static func verify(_ password: String, hash: String) -> Bool {
        let bytes = Array(password.utf8)
        guard bytes.count <= maximumPasswordBytes, (try? validate(hash)) != nil else { return false }
        return argon2id_verify(hash, bytes, bytes.count) == ARGON2_OK.rawValue
    }
}
#endif
