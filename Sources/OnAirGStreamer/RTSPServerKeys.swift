#if os(Linux)
import CGStreamer
import Foundation
import OnAirCore

/// Holds an `RTSPServer`'s credential check to `RTSPKeyring`: the shim's GstRTSPAuth (keys.c)
/// hands over each request's method and Authorization values and asks for a refusal's
/// WWW-Authenticate values, on the server's threads; the keyring decides, at the monotonic time.
/// The object the C callbacks point to is kept for the life of the process, like `RTSPServerGuard`.
final class RTSPServerKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keyring: RTSPKeyring

    /// User `user` with `password` as key 1.
    init(user: String, password: String, allowBasic: Bool) {
        keyring = RTSPKeyring(user: user, allowBasic: allowBasic, keys: [RTSPKeyring.Key(number: 1, password: password)])
    }

    /// Puts `keys` in force (a reload).
    func set(_ keys: [RTSPKeyring.Key]) {
        lock.lock()
        keyring.setKeys(keys)
        lock.unlock()
    }

    /// The callbacks the shim calls, pointing to this object (retained for good).
    func callbacks() -> onair_rtsp_keys_callbacks {
        onair_rtsp_keys_callbacks(
            context: Unmanaged.passRetained(self).toOpaque(),
            admit: { context, method, values, count in
                let headers = (0..<min(count, RTSPKeyring.maximumHeaders)).compactMap { values?[$0].map { String(cString: $0) } }
                return Int32(clamping: RTSPServerKeys.from(context).admit(method: method.map { String(cString: $0) } ?? "", headers))
            },
            challenge: { context, response in
                guard let response else { return }
                for value in RTSPServerKeys.from(context).challenge() { onair_rtsp_response_add_challenge(response, value) }
            })
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerKeys {
        Unmanaged<RTSPServerKeys>.fromOpaque(context!).takeUnretainedValue()
    }

    private func admit(method: String, _ headers: [String]) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return keyring.admit(method: method, authorizationHeaders: headers, now: RTSPServerGuard.now)
    }

    private func challenge() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return keyring.challenge(now: RTSPServerGuard.now)
    }
}
#endif
