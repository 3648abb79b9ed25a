#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirGStreamer

/// The RTSP face of `onair serve`: `rtsp://host:port/live` on gst-rtsp-server, one small
/// payloading pipeline per client fed from that client's own viewer queue in the hub (the
/// elementary form), so a slow client skips and is cut without touching anyone else.
///
/// Admission: a client takes a viewer slot at its first PLAY and gives it back at TEARDOWN,
/// session timeout or disconnect; `maxViewers` counts PLAYing RTSP clients with the HTTP, SRT and
/// WebRTC viewers, and a client beyond it gets 503 Service Unavailable — at DESCRIBE when every
/// slot is taken then, at PLAY when the slots filled since. A client that has DESCRIBEd or SET UP
/// but not PLAYed holds none (its pipeline is built and primed at DESCRIBE: the SDP needs the
/// stream's parameter sets). With tokens, clients need user `onair` and any token as password
/// (Digest; Basic too on loopback only); a client remembers which token admitted it, and
/// `setTokens` (a reload) changes the list. GStreamer is started only when this face is made.
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
    /// Whether clients need a password (a token) at all: fixed at start.
    private let asksCredentials: Bool
    /// Whether any token is listed now (with none, a face that asks for credentials admits no one).
    private var hasTokens = true
    private var stillAdmits: (@Sendable (ServeCredential) -> Bool)?

    /// Listens on `configuration.host`:`port` (0 picks one) for the streams `source` publishes.
    public init(configuration: ServeConfiguration, port: Int, hub: ServeHub, source: ServeElementarySink) throws {
        guard (0...65_535).contains(port) else {
            throw SettingsError(field: "rtspPort", value: "\(port)", allowed: "0…65535")
        }
        self.hub = hub
        self.source = source
        asksCredentials = configuration.token != nil
        try GStreamerLibrary.require(elements: ["appsrc", "rtph264pay", "rtpmp4gpay"])
        var settings = RTSPServerConfiguration(launch: ServeRTSPPipeline.launch(streams: source.streams))
        settings.host = configuration.host
        settings.port = port
        settings.path = ServeRTSPPipeline.path
        settings.credentials = configuration.token.map { (Self.user, $0) }
        settings.allowBasic = configuration.isLoopback
        settings.sessionTimeout = max(10, Int(configuration.limits.viewerTimeout.rounded(.up)) * 2)
        settings.contentLengthLimit = 16 * 1024
        settings.connectionLimit = configuration.limits.maxViewers + 64
        server = try RTSPServer(configuration: settings, delegate: self)
    }

    /// 200 while a viewer slot is free, else 503.
    public func rtspServer(admit client: RTSPClientHandle) -> Int {
        // Only a check here (gst-rtsp-server asks before it checks credentials): a client that
        // could not play now is not given a pipeline. The slot is taken at PLAY.
        hasFreeSlot ? 200 : 503
    }

    private var hasFreeSlot: Bool { hub.statistics().totals.viewers < hub.limits.maxViewers }

    /// Starts the client's feed (it primes the pipeline for the SDP).
    public func rtspServer(configured media: RTSPClientMedia) {
        let feed = ServeRTSPFeed(media: media, source: source)
        lock.lock()
        let running = server != nil
        if running { feeds[media.identifier] = feed }
        lock.unlock()
        guard running else { return endSources(of: media) }
        feed.start(in: feeders)
    }

    /// Puts `tokens` (each with the access policy's number) in force for requests from now on;
    /// `stillAdmits` (the policy's) tells whether the face is locked. Clients playing are not
    /// touched (the hub cuts those of a removed token, and refuses a PLAY with one: 403). False
    /// when the face was started without a token: it asks for none until a restart (and the hub
    /// then lets no one play).
    @discardableResult
    func setTokens(
        _ tokens: [(secret: String, number: Int)], stillAdmits: @escaping @Sendable (ServeCredential) -> Bool
    ) -> Bool {
        lock.lock()
        self.stillAdmits = stillAdmits
        hasTokens = !tokens.isEmpty
        let server = self.server
        lock.unlock()
        guard asksCredentials else { return false }
        return server?.setKeys(tokens.map { (password: $0.secret, number: $0.number) }) ?? false
    }

    /// Whether the face lets no one play any more: started open, it cannot ask for the tokens a
    /// reload added; started with tokens, a reload removed them all.
    var isLocked: Bool {
        lock.lock()
        defer { lock.unlock() }
        return asksCredentials ? !hasTokens : !(stillAdmits?(.anyone) ?? true)
    }

    /// Every PLAY names its token: see `rtspServer(play:key:)`.
    public func rtspServer(play identifier: UInt) -> Int { rtspServer(play: identifier, key: 0) }

    /// Takes the client's viewer slot at its first PLAY, remembering the token (`key`, its number)
    /// that admitted it: 200, 403 when that token is no longer listed, or 503 when no slot is free.
    public func rtspServer(play identifier: UInt, key: Int) -> Int {
        let credential: ServeCredential = key > 0 ? .token(key) : .anyone
        lock.lock()
        let feed = feeds[identifier]
        lock.unlock()
        guard let feed else { return 503 }
        do {
            let hub = self.hub
            try feed.play { try hub.openViewer(format: .elementary, transport: "rtsp", peer: feed.peer, credential: credential) }
            return 200
        } catch ServeRefusal.credentialWithdrawn {
            return 403
        } catch {
            return 503
        }
    }

    /// Names the client's transport in its statistics.
    public func rtspServer(media identifier: UInt, transport: String) {
        lock.lock()
        let feed = feeds[identifier]
        lock.unlock()
        feed?.setTransport("rtsp/\(transport)")
    }

    /// Ends the client's feed, which gives its slot back.
    public func rtspServer(mediaEnded identifier: UInt) {
        lock.lock()
        let feed = feeds.removeValue(forKey: identifier)
        lock.unlock()
        feed?.stop()
    }

    /// Nothing: the client's media end too, and that ends its feed.
    public func rtspServer(clientClosed identifier: UInt) {}

    private func endSources(of media: RTSPClientMedia) {
        media.video?.end()
        media.audio?.end()
    }

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
#endif
