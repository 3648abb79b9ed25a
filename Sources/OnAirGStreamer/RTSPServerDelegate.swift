/// What an `RTSPServer` asks and tells its owner. Called on GStreamer's threads (the server's loop
/// and gst-rtsp-server's client threads): implementations must be thread-safe and must not block.
public protocol RTSPServerDelegate: AnyObject, Sendable {
    /// A client DESCRIBEs the served path: an RTSP status code (200 admits; 503, 453 refuse).
    func rtspServer(admit client: RTSPClientHandle) -> Int
    /// A client's own pipeline was built; feed its sources until `rtspServer(mediaEnded:)`.
    func rtspServer(configured media: RTSPClientMedia)
    /// The client chose its transport for a media in SETUP: "udp", "tcp" or "multicast".
    func rtspServer(media identifier: UInt, transport: String)
    /// A media was torn down (TEARDOWN, session timeout, client gone).
    func rtspServer(mediaEnded identifier: UInt)
    /// A client's connection closed.
    func rtspServer(clientClosed identifier: UInt)
}
