#if os(Linux)
import CGStreamer
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
    /// Judges every request first (nil: all go on).
    private let rules: (any RTSPRequestPolicy)?

    init(delegate: any RTSPServerDelegate, rules: (any RTSPRequestPolicy)?) {
        owner = Locked(Owner(delegate: delegate))
        self.rules = rules
    }

    static func from(_ context: UnsafeMutableRawPointer?) -> RTSPServerEvents {
        Unmanaged<RTSPServerEvents>.fromOpaque(context!).takeUnretainedValue()
    }

    private var current: (any RTSPServerDelegate)? { owner.withLock { $0.delegate } }

    func detach() {
        owner.withLock { $0.delegate = nil }
    }

    /// The rules' status code for the shim's `request`.
    func check(_ request: UnsafePointer<onair_rtsp_request>?) -> Int32 {
        guard let rules else { return 200 }
        guard let request = request?.pointee else { return 400 }
        let names = request.names, values = request.values
        let headers = (0..<request.count).map { index in
            RTSPRequestHead.Header(name: Self.bytes(names?[index]) ?? [], value: Self.bytes(values?[index]) ?? [])
        }
        let head = RTSPRequestHead(
            method: request.method.map { String(cString: $0) } ?? "", uri: Self.bytes(request.uri) ?? [],
            path: Self.bytes(request.path), headers: headers, received: request.received < 0 ? nil : UInt64(request.received),
            bodySize: request.body_size)
        return Int32(clamping: rules.status(of: head))
    }

    /// A C string's bytes, as they are (not repaired as UTF-8 text would be).
    private static func bytes(_ text: UnsafePointer<CChar>?) -> [UInt8]? {
        guard let text else { return nil }
        let count = strlen(text)
        return text.withMemoryRebound(to: UInt8.self, capacity: count + 1) { Array(UnsafeBufferPointer(start: $0, count: count)) }
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
