#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// Holds an `RTSPServer`'s credential check to `RTSPKeyring`: the shim's GstRTSPAuth (keys.c)
/// hands over each request's method and Authorization values and asks for a refusal's
/// WWW-Authenticate values, on the server's threads; the keyring decides, at the monotonic time.
/// The object the C callbacks point to is kept for the life of the process, like `RTSPServerGuard`.
final class RTSPServerKeys: Sendable {
    private let keyring: Locked<RTSPKeyring>
    private let access: RTSPAccessHooks?

    /// User `user` with `password` (if any) as key 1; `access` judges other users' Basic credentials.
    init(user: String, password: String?, allowBasic: Bool, offersDigest: Bool, access: RTSPAccessHooks?) {
        keyring = Locked(
            RTSPKeyring(
                user: user, allowBasic: allowBasic, offersDigest: offersDigest,
                keys: password.map { [RTSPKeyring.Key(number: 1, password: $0)] } ?? []))
        self.access = access
    }

    /// Puts `keys` in force (a reload).
    func set(_ keys: [RTSPKeyring.Key]) {
        keyring.withLock { $0.setKeys(keys) }
    }

    /// The callbacks the shim calls, pointing to this object (retained for good).
    func callbacks() -> onair_rtsp_keys_callbacks {
        onair_rtsp_keys_callbacks(
            context: Unmanaged.passRetained(self).toOpaque(),
            admit: { context, method, values, count, peer in
                let headers = (0..<min(count, RTSPKeyring.maximumHeaders)).compactMap { values?[$0].map { String(cString: $0) } }
                let keys = RTSPServerKeys.from(context)
                return Int32(
                    clamping: keys.admit(
                        method: method.map { String(cString: $0) } ?? "", headers, peer: peer.map { String(cString: $0) } ?? ""))
            },
            challenge: { context, response in
                guard let response else { return }
                for value in RTSPServerKeys.from(context).challenge() { onair_rtsp_response_add_challenge(response, value) }
            })
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerKeys {
        Unmanaged<RTSPServerKeys>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The key the keyring finds; else, for Basic credentials of another user, the owner's verdict
    /// (outside the lock: it may take an argon2id run); credentials meant for the keyring and
    /// wrong are reported as a failure.
    private func admit(method: String, _ headers: [String], peer: String) -> Int {
        let (found, refusal, user, basicAllowed) = keyring.withLock { keyring in
            let now = RTSPServerGuard.now
            let found = keyring.admit(method: method, authorizationHeaders: headers, now: now)
            let refusal = found == 0 ? keyring.refusal(method: method, authorizationHeaders: headers, now: now) : nil
            return (found, refusal, keyring.user, keyring.allowBasic)
        }
        if found > 0 { return found }
        guard let access else { return 0 }
        if basicAllowed {
            for header in headers {
                guard case .basic(let name, _)? = RTSPCredential(header), name != user else { continue }
                return access.checkBasic(header, peer) ?? 0
            }
        }
        if let refusal { access.failed(peer, refusal) }
        return 0
    }

    private func challenge() -> [String] {
        keyring.withLock { $0.challenge(now: RTSPServerGuard.now) }
    }
}
#endif
