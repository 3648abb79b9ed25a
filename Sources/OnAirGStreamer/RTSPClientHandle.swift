#if os(Linux)
import CGStreamer

/// One RTSP client connection of an `RTSPServer`, held so it can be cut.
package final class RTSPClientHandle: Sendable {
    private let client: GStreamerPointer
    /// Tells clients apart (stable while the connection lives).
    package let identifier: UInt
    /// The peer's IP address.
    package let peer: String

    /// Takes over a reference to a client handed out by the shim.
    init(taking client: UnsafeMutableRawPointer, peer: String) {
        self.client = GStreamerPointer(client)
        identifier = UInt(bitPattern: client)
        self.peer = peer
    }

    /// Closes the connection; the client's media end.
    package func close() {
        onair_rtsp_client_close(client.raw)
    }

    /// Takes a reference of its own to a client the shim only lends.
    convenience init(borrowing client: UnsafeMutableRawPointer, peer: String) {
        onair_gst_object_ref(client)
        self.init(taking: client, peer: peer)
    }

    deinit {
        onair_gst_object_unref(client.raw)
    }
}
#endif
