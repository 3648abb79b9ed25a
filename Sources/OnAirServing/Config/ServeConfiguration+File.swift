#if os(Linux)
import OnAirServeConfig

extension ServeConfiguration {
    /// Takes what a configuration file says that has no flag: the address ranges allowed to read
    /// `/metrics` and `/healthz`/`/readyz` (loopback when the file does not say) and the users
    /// (`users:`, a list of `name`, `password` — a hash from `onair hash-password` —, `permissions`
    /// and optional `addresses`). Throws `ServeConfigError` naming the file, line and key.
    public mutating func apply(_ resolution: ServeConfigResolution) throws {
        metricsAddresses = resolution.addressRanges("metrics-addresses")
        healthAddresses = resolution.addressRanges("health-addresses")
        if let setting = resolution.settings["users"], let node = setting.node {
            users = try Self.users(from: node, origin: setting.origin)
        }
    }

    /// The users a `users:` node lists.
    static func users(from node: ServeConfigNode, origin: ServeConfigResolution.Origin) throws -> [ServeUser] {
        let source: String
        if case .file(let path, _) = origin { source = path } else { source = origin.description }
        func refuse(_ at: ServeConfigNode, _ reason: String) -> ServeConfigError {
            ServeConfigError(source: source, line: at.line, key: "users", reason: reason)
        }
        guard case .list(let entries) = node.content else { throw refuse(node, "takes a list of users, not \(node.kindName)") }
        guard entries.count <= 1000 else { throw refuse(node, "more than 1000 users") }
        return try entries.map { entry in
            guard case .map(let fields) = entry.content else { throw refuse(entry, "each user is a mapping, not \(entry.kindName)") }
            for field in fields where !["name", "password", "permissions", "addresses"].contains(field.key) {
                throw refuse(field.value, "unknown field '\(field.key)' (name, password, permissions, addresses)")
            }
            guard let name = entry["name"]?.scalar, let hash = entry["password"]?.scalar else {
                throw refuse(entry, "each user needs a name and a password (a hash from onair hash-password)")
            }
            func texts(_ key: String) throws -> [String] {
                guard let value = entry[key], !value.isNull else { return [] }
                if let one = value.scalar { return [one] }
                guard case .list(let items) = value.content else { throw refuse(value, "\(key) is a list") }
                return try items.map { item in
                    guard let text = item.scalar else { throw refuse(item, "\(key) holds words, not \(item.kindName)") }
                    return text
                }
            }
            do {
                return try ServeUser(name: name, passwordHash: hash, permissions: texts("permissions"), addresses: texts("addresses"))
            } catch let error as ServeConfigError {
                throw error
            } catch {
                throw refuse(entry, "\(error)")
            }
        }
    }
}
#endif
