#if os(Linux)
import OnAirServeConfig

/// One user of `onair serve`: a name, an argon2id password hash (never the password), what the user
/// may do, and optionally the addresses the user may come from.
public struct ServeUser: Sendable, Hashable {
    /// The name given with HTTP Basic (1–64 characters, no `:` and no control characters).
    public var name: String
    /// The argon2id hash of the password (PHC string, from `onair hash-password`).
    public var passwordHash: String
    /// What the user may do.
    public var permissions: Set<ServePermission>
    /// Where the user may connect from (empty: anywhere).
    public var addresses: [ServeAddressRange]

    /// A user from plain values, checked: `permissions` are names of `ServePermission` (`read`,
    /// `playback`, `metrics`, `admin`), `addresses` CIDR ranges. Throws saying what is wrong.
    public init(name: String, passwordHash: String, permissions: [String], addresses: [String] = []) throws {
        guard !name.isEmpty, name.count <= 64, !name.contains(":"),
            name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
        else {
            throw ServeAuthError("user '\(name)': a name is 1–64 characters, without ':' or control characters")
        }
        do {
            try ServePasswordHash.validate(passwordHash)
        } catch let error as ServeAuthError {
            throw ServeAuthError("user '\(name)': \(error.description)")
        }
        var granted = Set<ServePermission>()
        for permission in permissions {
            guard let known = ServePermission(rawValue: permission) else {
                throw ServeAuthError(
                    "user '\(name)': unknown permission '\(permission)' (\(ServePermission.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            granted.insert(known)
        }
        self.name = name
        self.passwordHash = passwordHash
        self.permissions = granted
        self.addresses = try addresses.map { text in
            do { return try ServeAddressRange(text) } catch let error as ServeAddressRange.ParseError {
                throw ServeAuthError("user '\(name)': \(error.description)")
            }
        }
    }

    /// Whether the user may connect from `address` (a numeric peer address).
    public func admits(_ address: String) -> Bool {
        addresses.isEmpty || addresses.contains { $0.contains(address) }
    }
}
#endif
