#if os(Linux)
import Foundation
import OnAirCore

/// The credential check of one RTSP server: its `RTSPKeyring` (user `onair` and the token keys)
/// under a lock at the monotonic time, and for other users' Basic credentials the owner's verdict
/// (`RTSPAccessHooks`, the HTTP server's `ServeAccessPolicy` through `ServeRTSPAccess`).
package final class RTSPKeys: Sendable {
    private let keyring: Locked<RTSPKeyring>
    private let access: RTSPAccessHooks?

    /// User `user` with `password` (if any) as key 1; `access` judges other users' Basic
    /// credentials. `offersDigest` false (with `allowBasic`) challenges with Basic only.
    package init(user: String, password: String?, allowBasic: Bool, offersDigest: Bool = true, access: RTSPAccessHooks? = nil) {
        keyring = Locked(
            RTSPKeyring(
                user: user, allowBasic: allowBasic, offersDigest: offersDigest,
                keys: password.map { [RTSPKeyring.Key(number: 1, password: $0)] } ?? []))
        self.access = access
    }

    /// Seconds on the monotonic clock.
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Puts `keys` in force instead of the current ones (a reload; nonces stay good).
    package func setKeys(_ keys: [(password: String, number: Int)]) {
        keyring.withLock { $0.setKeys(keys.map { RTSPKeyring.Key(number: $0.number, password: $0.password) }) }
    }

    /// The key the keyring finds; else, for Basic credentials of another user, the owner's verdict
    /// (outside the lock: it may take an argon2id run); credentials meant for the keyring and
    /// wrong are reported as a failure.
    package func admit(method: String, authorization headers: [String], peer: String) -> Int {
        let (found, refusal, user, basicAllowed) = keyring.withLock { keyring in
            let now = Self.now
            let found = keyring.admit(method: method, authorizationHeaders: headers, now: now)
            let refusal = found == 0 ? keyring.refusal(method: method, authorizationHeaders: headers, now: now) : nil
            return (found, refusal, keyring.user, keyring.allowBasic)
        }
        if found > 0 { return found }
        guard let access else { return 0 }
        if basicAllowed {
            for header in headers.prefix(RTSPKeyring.maximumHeaders) {
                guard case .basic(let name, _)? = RTSPCredential(header), name != user else { continue }
                return access.checkBasic(header, peer) ?? 0
            }
        }
        if let refusal { access.failed(peer, refusal) }
        return 0
    }

    /// The WWW-Authenticate values of a refusal.
    package func challenge() -> [String] {
        keyring.withLock { $0.challenge(now: Self.now) }
    }
}

/// What an RTSP server's `RTSPKeys` asks its owner about credentials its keyring does not judge.
package struct RTSPAccessHooks: Sendable {
    /// Basic credentials (the whole Authorization value) for a user other than the keyring's, from
    /// the numeric address `peer`: the key number (> 0) to admit the request with, or nil. Asked only
    /// where Basic is allowed; the owner counts and logs its own failures.
    package var checkBasic: @Sendable (_ authorization: String, _ peer: String) -> Int?
    /// Credentials meant for the keyring were wrong (`scheme`: `digest` or `basic`), from `peer`.
    package var failed: @Sendable (_ peer: String, _ scheme: String) -> Void

    /// Hooks calling these closures.
    package init(
        checkBasic: @escaping @Sendable (_ authorization: String, _ peer: String) -> Int?,
        failed: @escaping @Sendable (_ peer: String, _ scheme: String) -> Void
    ) {
        self.checkBasic = checkBasic
        self.failed = failed
    }
}
#endif
