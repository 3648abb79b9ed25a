#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirServeConfig

/// Who may do what on the HTTP faces of `onair serve`: the verdict on one request's credentials,
/// made in Swift (libmicrohttpd only hands the header over).
///
/// Credentials, in order: `Authorization: Basic` (a user's name and password, checked against the
/// argon2id hash), `Authorization: Bearer` (any of the `--token`s), then, only on the paths where a
/// client cannot send a header (`tokenInQueryAllowed`), `?token=`. A token holds every permission.
/// With neither users nor a token, everyone may do everything (loopback by default).
///
/// The tokens are a list so they can be rotated (issue 33): a reload adds the new one
/// (`setTokens`), clients move to it, a second reload removes the old one, and the viewers it
/// admitted are cut (`stillAdmits` says which). Each token is known by a number
/// (`ServeCredential.token`) given when it first appears and kept while it stays listed. The users
/// change the same way (`setUsers`): a viewer admitted by a user who was removed, whose password
/// changed or who lost `read` is cut; each user's entry has a revision for that (`ServeUserRoster`).
///
/// Answers: no credentials → 401; wrong credentials → 401 (counted against the address); a right
/// user without the permission, or from outside the user's ranges → 403; an address with
/// `limiter.threshold` failures in a minute → 429 for a growing time, whatever it sends.
/// Passwords and tokens are compared in constant time and never logged; each failure logs one
/// line in `ServeAccessPolicy.failureLine`'s format.
package final class ServeAccessPolicy: Sendable {
    /// The users in force.
    public var users: [ServeUser] { state.withLock { $0.roster.users } }
    /// The tokens (`--token`, repeatable), each holding every permission.
    public var tokens: [String] { state.withLock { $0.listed.map(\.secret) } }
    /// Addresses that need no credentials for a permission (e.g. `/metrics` from loopback).
    public let openAddresses: [ServePermission: [ServeAddressRange]]
    /// The failure counter.
    public let limiter: ServeFailureLimiter
    private let log: @Sendable (String) -> Void
    private struct State {
        /// The tokens in force with their numbers, and the number the next new one gets.
        var listed: [(secret: String, number: Int)] = []
        var nextTokenNumber = 1
        /// The users in force and their revisions.
        var roster: ServeUserRoster
        /// Basic credentials recently verified (the header's value → the user), so a player fetching a
        /// segment every two seconds does not pay for an argon2id run each time. Bounded; entries expire.
        var verified: [String: (user: String, until: Double)] = [:]
    }

    private let state: Locked<State>
    private static let verifiedCapacity = 256
    private static let verifiedLifetime = 300.0

    /// The verdict on one request.
    public enum Verdict: Sendable, Equatable {
        /// Allowed, and by what (to be remembered by a viewer admitted so).
        case allowed(who: ServeCredential)
        /// 401: no credentials, or wrong ones.
        case unauthorized
        /// 403: a permission the user lacks or an address outside the user's ranges.
        case forbidden(String)
        /// 429: too many failures from this address; retry after this many seconds.
        case tooManyFailures(retryAfter: Int)
    }

    /// A policy; `log` receives the failure and block lines (standard error by default).
    public init(
        users: [ServeUser] = [], tokens: [String] = [], openAddresses: [ServePermission: [ServeAddressRange]] = [:],
        limiter: ServeFailureLimiter = ServeFailureLimiter(),
        log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        state = Locked(State(roster: ServeUserRoster(users)))
        self.openAddresses = openAddresses
        self.limiter = limiter
        self.log = log
        setTokens(tokens)
    }

    /// Puts `tokens` in force from the next request on (a reload). A token already in force keeps
    /// its number; a new one gets the next. Viewers admitted by a token no longer listed are for
    /// the caller to cut (`stillAdmits`).
    public func setTokens(_ tokens: [String]) {
        state.withLock { state in
            var kept: [(secret: String, number: Int)] = []
            for token in tokens where !kept.contains(where: { ConstantTime.equal($0.secret, token) }) {
                if let old = state.listed.first(where: { ConstantTime.equal($0.secret, token) }) {
                    kept.append(old)
                } else {
                    kept.append((token, state.nextTokenNumber))
                    state.nextTokenNumber += 1
                }
            }
            state.listed = kept
        }
    }

    /// Puts `users` in force from the next request on (a reload). Returns the names whose viewers
    /// are to be cut (`stillAdmits` rejects them): users removed, or whose password or `read`
    /// permission changed. Passwords verified before are checked again.
    @discardableResult
    public func setUsers(_ users: [ServeUser]) -> Set<String> {
        state.withLock { state in
            state.verified.removeAll()
            return state.roster.update(to: users)
        }
    }

    /// Whether a viewer admitted by `credential` may stay under the credentials in force now: a
    /// token still listed, a user still configured with the same password and `read`, or anyone
    /// while the server asks for nothing.
    public func stillAdmits(_ credential: ServeCredential) -> Bool {
        switch credential {
        case .anyone: return isOpen
        case .user(let name, let revision):
            return state.withLock { $0.roster.admits(name, revision: revision) }
        case .token(let number):
            return state.withLock { $0.listed.contains { $0.number == number } }
        }
    }

    /// The tokens in force, each with its number (for a face that checks them itself: RTSP).
    package var numberedTokens: [(secret: String, number: Int)] { state.withLock { $0.listed } }

    /// The number of the listed token equal to `given` (compared in constant time with each), or nil.
    public func tokenNumber(_ given: String) -> Int? {
        let tokens = state.withLock { $0.listed }
        var found: Int?
        for token in tokens where ConstantTime.equal(given, token.secret) { found = token.number }
        return found
    }

    /// Whether any credentials are asked for at all.
    public var isOpen: Bool { state.withLock { $0.roster.users.isEmpty && $0.listed.isEmpty } }

    /// The line logged for each failed authentication: `onair auth: failed from ADDRESS (METHOD)`,
    /// METHOD being `basic`, `bearer` or `query-token`. fail2ban's filter (dist/fail2ban/onair.conf) matches it.
    public static func failureLine(address: String, method: String) -> String {
        "onair auth: failed from \(address) (\(method))"
    }

    /// The line logged when an address is blocked: `onair auth: blocked ADDRESS for N s after M failures`.
    public static func blockLine(address: String, seconds: Int, failures: Int) -> String {
        "onair auth: blocked \(address) for \(seconds) s after \(failures) failures"
    }

    /// The verdict for a request needing `permission` from `address` (numeric, no port), with its
    /// `Authorization` header and, where allowed, its query token.
    public func verdict(
        permission: ServePermission, address: String, authorization: String?, queryToken: String?
    ) -> Verdict {
        if isOpen { return .allowed(who: .anyone) }
        if let left = limiter.blocked(address) { return .tooManyFailures(retryAfter: Int(left.rounded(.up))) }
        if openAddresses[permission]?.contains(where: { $0.contains(address) }) == true { return .allowed(who: .anyone) }
        let header = authorization ?? ""
        switch HTTPAuthorization(header) {
        case .basic(let user, let password):
            guard let (found, revision) = authenticate(user, password, header: header) else { return failed(address, method: "basic") }
            guard found.admits(address) else { return .forbidden("user \(found.name) may not connect from \(address)") }
            guard found.permissions.contains(permission) else { return .forbidden("user \(found.name) lacks '\(permission.rawValue)'") }
            return .allowed(who: .user(found.name, revision: revision))
        case .bearer(let bearer):
            guard let number = tokenNumber(bearer) else { return failed(address, method: "bearer") }
            return .allowed(who: .token(number))
        case nil:
            if !header.isEmpty { return failed(address, method: HTTPAuthorization.isBasic(header) ? "basic" : "bearer") }
        }
        if let queryToken {
            guard let number = tokenNumber(queryToken) else { return failed(address, method: "query-token") }
            return .allowed(who: .token(number))
        }
        return .unauthorized
    }

    /// Counts a failed login from `address` that another face judged (RTSP's Digest), logging it
    /// as the HTTP faces' failures are (`method`: e.g. `rtsp-digest`).
    package func recordFailure(address: String, method: String) {
        _ = failed(address, method: method)
    }

    private func failed(_ address: String, method: String) -> Verdict {
        log(Self.failureLine(address: address, method: method))
        if let seconds = limiter.fail(address) {
            log(Self.blockLine(address: address, seconds: Int(seconds), failures: limiter.threshold))
        }
        return .unauthorized
    }

    /// The user whose name and password these are, with the revision the password was checked
    /// against, or nil. Unknown names cost an argon2id run too.
    private func authenticate(_ name: String, _ password: String, header: String) -> (ServeUser, revision: Int)? {
        let time = ProcessInfo.processInfo.systemUptime
        // A user still verified by the cache (nil: none), or the user of that name to check and its revision.
        let (cachedUser, user, revision) = state.withLock { state -> ((ServeUser, Int)?, ServeUser?, Int) in
            if let cached = state.verified[header], cached.until > time,
                let user = state.roster.users.first(where: { $0.name == cached.user }), let revision = state.roster.revision(of: user.name)
            {
                return ((user, revision), nil, 0)
            }
            let user = state.roster.users.first { ConstantTime.equal($0.name, name) }
            return (nil, user, user.flatMap { state.roster.revision(of: $0.name) } ?? 0)
        }
        if let cachedUser { return cachedUser }
        let hash = user?.passwordHash ?? Self.decoy
        guard ServePasswordHash.verify(password, hash: hash), let user else { return nil }
        return state.withLock { state in
            // A reload while the hash was checked: the password is judged again at the next request.
            guard state.roster.revision(of: user.name) == revision else { return (user, revision) }
            if state.verified.count >= Self.verifiedCapacity { state.verified = state.verified.filter { $0.value.until > time } }
            if state.verified.count >= Self.verifiedCapacity { state.verified.removeAll() }
            state.verified[header] = (user.name, time + Self.verifiedLifetime)
            return (user, revision)
        }
    }

    /// A hash no password matches in practice, checked for unknown names so they take as long as known ones.
    private static let decoy = (try? ServePasswordHash.make(UUID().uuidString)) ?? ""

    /// The address of a peer written `ADDRESS:PORT` or `[ADDRESS]:PORT`.
    public static func address(ofPeer peer: String) -> String {
        ServeAddressRange.host(ofPeer: peer)
    }

    /// The permission a path of the HTTP face needs: `/metrics` metrics, `/list`, `/get`,
    /// `/recordings…` and `/playback…` playback, `/admin…` admin, everything else (page, streams,
    /// HLS, stats, WHEP, snapshot) read.
    public static func permission(forPath path: String) -> ServePermission {
        if path == "/metrics" { return .metrics }
        if path == "/list" || path == "/get" || path.hasPrefix("/recordings") || path.hasPrefix("/playback") { return .playback }
        if path.hasPrefix("/admin") { return .admin }
        return .read
    }
}
#endif
