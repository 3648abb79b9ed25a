#if os(Linux)
import CGStreamer
import Foundation

/// Whom an `RTSPServer` admits (OnAirServing's `RTSPKeys`, over its `RTSPKeyring`): asked on
/// gst-rtsp-server's threads, so thread-safe; every decision is its own.
package protocol RTSPCredentialPolicy: AnyObject, Sendable {
    /// Whether Basic is accepted besides Digest (GstRTSPAuth's supported methods).
    var allowsBasic: Bool { get }
    /// The number (> 0) of the key a request's credentials name, 0 when none: `method` is its
    /// method ("DESCRIBE"), `authorization` the values of its Authorization headers (at most 8),
    /// `peer` the client's numeric address.
    func admit(method: String, authorization: [String], peer: String) -> Int
    /// The WWW-Authenticate values of a refusal.
    func challenge() -> [String]
    /// Puts `keys` in force instead of the current ones (a reload).
    func setKeys(_ keys: [(password: String, number: Int)])
}

/// Bridges the shim's GstRTSPAuth (keys.c) to an `RTSPCredentialPolicy`: each request's method
/// and Authorization values go to it, its WWW-Authenticate values come back to a refusal. The
/// object the C callbacks point to is kept for the life of the process, like `RTSPServerGuard`.
final class RTSPServerKeys: Sendable {
    let policy: any RTSPCredentialPolicy

    init(policy: any RTSPCredentialPolicy) {
        self.policy = policy
    }

    /// The callbacks the shim calls, pointing to this object (retained for good).
    func callbacks() -> onair_rtsp_keys_callbacks {
        onair_rtsp_keys_callbacks(
            context: Unmanaged.passRetained(self).toOpaque(),
            admit: { context, method, values, count, peer in
                let headers = (0..<count).compactMap { values?[$0].map { String(cString: $0) } }
                let method = method.map { String(cString: $0) } ?? "", peer = peer.map { String(cString: $0) } ?? ""
                return Int32(clamping: RTSPServerKeys.from(context).policy.admit(method: method, authorization: headers, peer: peer))
            },
            challenge: { context, response in
                guard let response else { return }
                for value in RTSPServerKeys.from(context).policy.challenge() { onair_rtsp_response_add_challenge(response, value) }
            })
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerKeys {
        Unmanaged<RTSPServerKeys>.fromOpaque(context!).takeUnretainedValue()
    }
}
#endif
