#if os(Linux)
/// What admitted a viewer: the way in it remembers, so a reload that withdraws it can cut the
/// viewer (`ServeAccessPolicy.stillAdmits`). Never the secret itself: a token is known by a number
/// the policy gives it when it first appears and keeps while the token stays in the list.
package enum ServeCredential: Sendable, Hashable, CustomStringConvertible {
    /// No credentials were asked for (an open server, or an address range open for the permission).
    case anyone
    /// A user of the config file, by name, and the revision of that user's entry it was admitted
    /// under (`ServeAccessPolicy.setUsers` gives a new one when the password or the `read`
    /// permission changes, so a reload cuts the viewers admitted under the old one).
    case user(String, revision: Int = 1)
    /// A token, by its number (`token #1` is the first one the server was given).
    case token(Int)

    /// `anyone`, `user NAME` or `token #N`: what `/stats.json` and the log may show.
    public var description: String {
        switch self {
        case .anyone: "anyone"
        case .user(let name, _): "user \(name)"
        case .token(let number): "token #\(number)"
        }
    }
}
#endif
