#if os(Linux)
import Foundation
import OnAirCore

/// Turns the shim's C callbacks into `RTSPServerDelegate` calls with Swift types; after the
/// server stops (or its owner is gone) it refuses new clients and ignores the rest.
final class RTSPServerEvents: Sendable {
    /// The owner, held weakly.
    private struct Owner {
        weak var delegate: (any RTSPServerDelegate)?
    }

    private let owner: Locked<Owner>

    init(delegate: any RTSPServerDelegate) {
        owner = Locked(Owner(delegate: delegate))
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerEvents {
        Unmanaged<RTSPServerEvents>.fromOpaque(context!).takeUnretainedValue()
    }

    private var current: (any RTSPServerDelegate)? { owner.withLock { $0.delegate } }

    func detach() {
        owner.withLock { $0.delegate = nil }
    }

    func admit(client: UnsafeMutableRawPointer?, peer: UnsafePointer<CChar>?) -> Int32 {
        guard let delegate = current, let client else { return 503 }
        // A handle of its own: the shim lends the client here, so take a reference.
        let handle = RTSPClientHandle(borrowing: client, peer: peer.map { String(cString: $0) } ?? "")
        return Int32(delegate.rtspServer(admit: handle))
    }

    func configured(
        media: UnsafeMutableRawPointer?, video: UnsafeMutableRawPointer?, audio: UnsafeMutableRawPointer?,
        client: UnsafeMutableRawPointer?, peer: UnsafePointer<CChar>?, path: UnsafePointer<CChar>?
    ) {
        let address = peer.map { String(cString: $0) } ?? ""
        let configured = RTSPClientMedia(
            identifier: UInt(bitPattern: media),
            video: video.map { GStreamerAppSource(taking: $0) },
            audio: audio.map { GStreamerAppSource(taking: $0) },
            client: client.map { RTSPClientHandle(taking: $0, peer: address) }, peer: address,
            path: path.map { String(cString: $0) } ?? "", media: media.map { RTSPMediaReference(borrowing: $0) })
        current?.rtspServer(configured: configured)
    }

    func play(media: UnsafeMutableRawPointer?, key: Int) -> Int32 {
        guard let delegate = current else { return 503 }
        return Int32(delegate.rtspServer(play: UInt(bitPattern: media), key: key))
    }

    func transport(media: UnsafeMutableRawPointer?, name: UnsafePointer<CChar>?) {
        current?.rtspServer(media: UInt(bitPattern: media), transport: name.map { String(cString: $0) } ?? "udp")
    }

    func ended(media: UnsafeMutableRawPointer?) {
        current?.rtspServer(mediaEnded: UInt(bitPattern: media))
    }

    func closed(client: UnsafeMutableRawPointer?) {
        current?.rtspServer(clientClosed: UInt(bitPattern: client))
    }
}
#endif
