#if os(Linux)
/// The users in force and the revision of each (what a reload of `users:` decides): a user keeps
/// its revision while its password hash and its `read` permission stay the same, and gets a new
/// one when either changes, so the viewers it admitted before (`ServeCredential.user(name,
/// revision:)`) no longer match and are cut, while those of unchanged users stay. A user removed
/// and given again later is a new revision too. Address ranges apply to requests from then on and
/// cut no one. Not thread-safe: `ServeAccessPolicy` holds it under its lock.
struct ServeUserRoster: Sendable {
    /// The users in force, in the file's order.
    private(set) var users: [ServeUser] = []
    /// Every name ever configured: its password hash and `read` permission as last seen, its
    /// revision, and whether it is in force now.
    private var entries: [String: (hash: String, reads: Bool, revision: Int, present: Bool)] = [:]

    /// A roster of `users`, each at revision 1.
    init(_ users: [ServeUser] = []) {
        update(to: users)
    }

    /// Puts `users` in force (a reload); returns the names whose viewers are now to be cut: those
    /// removed, and those whose password or `read` permission changed.
    @discardableResult
    mutating func update(to users: [ServeUser]) -> Set<String> {
        var withdrawn = Set<String>()
        let names = Set(users.map(\.name))
        for (name, entry) in entries where entry.present && !names.contains(name) {
            entries[name]?.present = false
            withdrawn.insert(name)
        }
        for user in users {
            let reads = user.permissions.contains(.read)
            guard let entry = entries[user.name] else {
                entries[user.name] = (user.passwordHash, reads, 1, true)
                continue
            }
            // A new hash counts as a new password (even of the same one: its salt differs).
            let changed = entry.hash != user.passwordHash || (entry.reads && !reads)
            if entry.present && changed { withdrawn.insert(user.name) }
            let renewed = changed || !entry.present
            entries[user.name] = (user.passwordHash, reads, renewed ? entry.revision + 1 : entry.revision, true)
        }
        self.users = users
        return withdrawn
    }

    /// The revision of the user `name` in force, or nil when there is none.
    func revision(of name: String) -> Int? {
        guard let entry = entries[name], entry.present else { return nil }
        return entry.revision
    }

    /// Whether a viewer admitted as user `name` at `revision` may stay: the user is still
    /// configured, at that revision, and may `read`.
    func admits(_ name: String, revision: Int) -> Bool {
        guard let entry = entries[name], entry.present else { return false }
        return entry.revision == revision && entry.reads
    }
}
#endif
