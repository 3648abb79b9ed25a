#if os(Linux)
#if canImport(OnAirHTTP)
import Foundation
import OnAirCore

/// The RTSP face's side of the access policy: what the RTSP servers ask about credentials their
/// keyring (the tokens, Digest) does not judge, answered by the HTTP server's `ServeAccessPolicy`
/// once the face is given it — users' Basic credentials (permission `read`, the user's address
/// ranges, the argon2id check and its cache), failed logins counted per address, blocked
/// addresses. The servers carry what admitted a client as a key number: a token's own number, or
/// one given here to each user (from `firstUserNumber`) or to an open address range.
final class ServeRTSPAccess: Sendable {
    /// The first key number given to a user (tokens are numbered from 1, far below it).
    static let firstUserNumber = 1 << 20
    /// The key number of a client admitted because its address needs no credentials.
    static let anyoneNumber = firstUserNumber - 1

    private struct State {
        var policy: ServeAccessPolicy?
        var userNumbers: [ServeCredential: Int] = [:]
        var numberedUsers: [Int: ServeCredential] = [:]
    }

    private let state = Locked(State())

    /// The hooks the RTSP servers call.
    var hooks: RTSPAccessHooks {
        RTSPAccessHooks(
            checkBasic: { [self] authorization, peer in checkBasic(authorization, peer: peer) },
            failed: { [self] peer, scheme in failed(peer: peer, scheme: scheme) })
    }

    /// Puts `policy` in force.
    func set(_ policy: ServeAccessPolicy) {
        state.withLock { $0.policy = policy }
    }

    private var current: ServeAccessPolicy? { state.withLock { $0.policy } }

    /// Whether the policy has users (who may come in by Basic where it is allowed).
    var hasUsers: Bool { current?.users.isEmpty == false }

    /// Whether `peer` is blocked for its failed logins.
    func isBlocked(_ peer: String) -> Bool {
        current?.limiter.blocked(peer) != nil
    }

    /// The key number for Basic credentials of a user (or nil: refused, counted by the policy).
    func checkBasic(_ authorization: String, peer: String) -> Int? {
        guard let policy = current else { return nil }
        guard case .allowed(let who) = policy.verdict(permission: .read, address: peer, authorization: authorization, queryToken: nil)
        else { return nil }
        return number(for: who)
    }

    /// Counts a failed login of the tokens' user from `peer`.
    func failed(peer: String, scheme: String) {
        current?.recordFailure(address: peer, method: "rtsp-\(scheme)")
    }

    /// The key number standing for `credential` (a user's name and entry revision get one each).
    func number(for credential: ServeCredential) -> Int {
        switch credential {
        case .anyone: return Self.anyoneNumber
        case .token(let number): return number
        case .user:
            return state.withLock { state in
                if let known = state.userNumbers[credential] { return known }
                let number = Self.firstUserNumber + state.userNumbers.count
                state.userNumbers[credential] = number
                state.numberedUsers[number] = credential
                return number
            }
        }
    }

    /// What a key number stands for: 0 (no credentials) and the open number are `anyone`, a user's
    /// number that user (at the entry's revision it logged in under), any other a token.
    func credential(forKey key: Int) -> ServeCredential {
        if key <= 0 || key == Self.anyoneNumber { return .anyone }
        guard key >= Self.firstUserNumber else { return .token(key) }
        // A number never given stands for no one a policy admits.
        return state.withLock { $0.numberedUsers[key] } ?? .user("", revision: 0)
    }
}
#endif
#endif
