#if canImport(OnAirGStreamer) && canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirGStreamer

/// The RTSP face of `onair serve`: `rtsp://host:port/live` on gst-rtsp-server, one small
/// payloading pipeline per client fed from that client's own viewer queue in the hub (the
/// elementary form), so a slow client skips and is cut without touching anyone else.
///
/// Admission: a client takes a viewer slot at DESCRIBE (its pipeline starts then: the SDP needs
/// the stream's parameter sets) and gives it back at TEARDOWN, session timeout or disconnect;
/// `maxViewers` counts it with the HTTP and SRT viewers, and a client beyond it gets
/// 503 Service Unavailable. With a token, clients need user `onair` and the token as password
/// (Digest; Basic too on loopback only). GStreamer is started only when this face is made.
public final class ServeRTSPFace: RTSPServerDelegate, @unchecked Sendable {
    /// The user name RTSP clients give with the token as password.
    public static let user = "onair"
    /// The TCP port listened on.
    public var port: Int { server?.port ?? 0 }
    private let hub: ServeHub
    private let source: ServeElementarySink
    private let lock = NSLock()
    private let feeders = DispatchGroup()
    private var server: RTSPServer?
    /// Viewers admitted at DESCRIBE, by client, until their media is built.
    private var admitted: [UInt: ServeViewer] = [:]
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
        let viewer: ServeViewer
        do {
            viewer = try hub.openViewer(format: .elementary, transport: "rtsp", peer: client.peer)
        } catch {
            return 503
        }
        lock.lock()
        let replaced = admitted.updateValue(viewer, forKey: client.identifier)
        lock.unlock()
        replaced?.close()
        return 200
    }

    public func rtspServer(configured media: RTSPClientMedia) {
        lock.lock()
        var viewer = media.client.flatMap { admitted.removeValue(forKey: $0.identifier) }
        lock.unlock()
        if viewer == nil {
            // A SETUP without DESCRIBE: admitted here, or its pipeline ends at once.
            viewer = try? hub.openViewer(format: .elementary, transport: "rtsp", peer: media.peer)
        }
        guard let viewer else {
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

    public func rtspServer(clientClosed identifier: UInt) {
        lock.lock()
        let viewer = admitted.removeValue(forKey: identifier)
        lock.unlock()
        viewer?.close()
    }

    /// Closes every client, stops listening and waits for the feeds to end.
    public func stop() {
        lock.lock()
        let server = self.server
        self.server = nil
        let open = Array(feeds.values)
        feeds = [:]
        let waiting = Array(admitted.values)
        admitted = [:]
        lock.unlock()
        server?.stop()
        for feed in open { feed.stop() }
        for viewer in waiting { viewer.close() }
        feeders.wait()
    }
}
#endif
