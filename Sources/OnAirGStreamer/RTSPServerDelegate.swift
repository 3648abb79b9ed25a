#if os(Linux)
/// What an `RTSPServer` asks and tells its owner. Called on GStreamer's threads (the server's loop
/// and gst-rtsp-server's client threads): implementations must be thread-safe and must not block.
package protocol RTSPServerDelegate: AnyObject, Sendable {
    /// A client DESCRIBEs the served path: an RTSP status code (200 admits; 503, 453 refuse).
    func rtspServer(admit client: RTSPClientHandle) -> Int
    /// A client's own pipeline was built; feed its sources until `rtspServer(mediaEnded:)`.
    func rtspServer(configured media: RTSPClientMedia)
    /// A client asks to PLAY a media (the first time or after PAUSE): an RTSP status code (200
    /// lets it play; 503, 453 refuse). Without an implementation every PLAY is let through.
    func rtspServer(play media: UInt) -> Int
    /// The same, told the number of the key (password) that admitted the request (0: none asked;
    /// see `RTSPServer.setKeys`). By default, `rtspServer(play:)`.
    func rtspServer(play media: UInt, key: Int) -> Int
    /// The client chose its transport for a media in SETUP: "udp", "tcp" or "multicast".
    func rtspServer(media identifier: UInt, transport: String)
    /// A media was torn down (TEARDOWN, session timeout, client gone).
    func rtspServer(mediaEnded identifier: UInt)
    /// A client's connection closed.
    func rtspServer(clientClosed identifier: UInt)
}

extension RTSPServerDelegate {
    /// Lets every PLAY through.
    package func rtspServer(play media: UInt) -> Int { 200 }
    /// Asks `rtspServer(play:)`, whatever the key.
    package func rtspServer(play media: UInt, key: Int) -> Int { rtspServer(play: media) }
}
#endif
