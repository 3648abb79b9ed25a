#if canImport(OnAirGStreamer) && canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirGStreamer

/// The RTSP face of `onair serve`: `rtsp://host:port/live` on gst-rtsp-server, one small
/// payloading pipeline per client fed from that client's own viewer queue in the hub (the
/// elementary form), so a slow client skips and is cut without touching anyone else.
///
/// Admission: a client is refused at DESCRIBE when the hub is full, and takes a viewer slot once
/// its media is built in that DESCRIBE (its pipeline starts then: the SDP needs the stream's
/// parameter sets) and gives it back at TEARDOWN, session timeout or disconnect;
/// `maxViewers` counts it with the HTTP and SRT viewers, and a client beyond it gets
/// 503 Service Unavailable. With a token, clients need user `onair` and the token as password
/// (Digest; Basic too on loopback only). GStreamer is started only when this face is made.
package final class ServeRTSPFace: RTSPServerDelegate, @unchecked Sendable {
    /// The user name RTSP clients give with the token as password.
    public static let user = "onair"
    /// The TCP port listened on.
    public var port: Int { server?.port ?? 0 }
    private let hub: ServeHub
    private let source: ServeElementarySink
    private let lock = NSLock()
    private let feeders = DispatchGroup()
    private var server: RTSPServer?
    private var feeds: [UInt: ServeRTSPFeed] = [:]

    /// Listens on `configuration.host`:`port` (0 picks one) for the streams `source` publishes.
    public init(configuration: ServeConfiguration, port: Int, hub: ServeHub, source: ServeElementarySink) throws {
        guard (0...65_535).contains(port) else {
            throw SettingsError(field: "rtspPort", value: "\(port)", allowed: "0…65535")
        }
        self.hub = hub
        self.source = source
        try GStreamerLibrary.require(elements: ["appsrc", "rtph264pay", "rtpmp4gpay"])
        var settings = RTSPServerConfiguration(launch: ServeRTSPPipeline.launch(streams: source.streams))
        settings.host = configuration.host
        settings.port = port
        settings.path = ServeRTSPPipeline.path
        settings.credentials = configuration.token.map { (Self.user, $0) }
        settings.allowBasic = configuration.isLoopback
        settings.sessionTimeout = max(10, Int(configuration.limits.viewerTimeout.rounded(.up)) * 2)
        settings.contentLengthLimit = 16 * 1024
        server = try RTSPServer(configuration: settings, delegate: self)
    }

    public func rtspServer(admit client: RTSPClientHandle) -> Int {
        // Only a check here: gst-rtsp-server asks before it checks credentials, and a refused
        // client's DESCRIBE never builds a media. The slot is taken when the media is built.
        let figures = hub.statistics().totals
        return figures.viewers < hub.limits.maxViewers ? 200 : 503
    }

    public func rtspServer(configured media: RTSPClientMedia) {
        guard let viewer = try? hub.openViewer(format: .elementary, transport: "rtsp", peer: media.peer) else {
            // Filled up since DESCRIBE was admitted (or stopping): the pipeline ends at once.
            media.video?.end()
            media.audio?.end()
            return
        }
        let source = self.source
        let feed = ServeRTSPFeed(viewer: viewer, media: media) { source.formatDescription(of: $0) }
        lock.lock()
        feeds[media.identifier] = feed
        lock.unlock()
        feed.start(in: feeders)
    }

    public func rtspServer(media identifier: UInt, transport: String) {
        lock.lock()
        let feed = feeds[identifier]
        lock.unlock()
        feed?.viewer.setTransport("rtsp/\(transport)")
    }

    public func rtspServer(mediaEnded identifier: UInt) {
        lock.lock()
        let feed = feeds.removeValue(forKey: identifier)
        lock.unlock()
        feed?.stop()
    }

    public func rtspServer(clientClosed identifier: UInt) {}

    /// Closes every client, stops listening and waits for the feeds to end.
    public func stop() {
        lock.lock()
        let server = self.server
        self.server = nil
        let open = Array(feeds.values)
        feeds = [:]
        lock.unlock()
        server?.stop()
        for feed in open { feed.stop() }
        feeders.wait()
    }
}
#endif
