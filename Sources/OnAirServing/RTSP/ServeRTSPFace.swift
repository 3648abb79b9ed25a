#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirGStreamer

/// The RTSP face of `onair serve`: `rtsp://host:port/live` on gst-rtsp-server, one small
/// payloading pipeline per client fed from that client's own viewer queue in the hub (the
/// elementary form), so a slow client skips and is cut without touching anyone else.
///
/// Two servers over the same media when TLS is on: RTSPS (`rtsps://host:tlsPort/live`, the media
/// inside the TLS connection as RTP interleaved over TCP, never plain RTP beside it) and plain RTSP
/// as `ServeConfiguration.rtspPlain` says (by default on loopback only).
///
/// Admission: a client takes a viewer slot at its first PLAY and gives it back at TEARDOWN,
/// session timeout or disconnect; `maxViewers` counts PLAYing RTSP clients with the HTTP, SRT and
/// WebRTC viewers, and a client beyond it gets 503 Service Unavailable — at DESCRIBE when every
/// slot is taken then, at PLAY when the slots filled since. A client that has DESCRIBEd or SET UP
/// but not PLAYed holds none (its pipeline is built and primed at DESCRIBE: the SDP needs the
/// stream's parameter sets).
///
/// Credentials (`ServeRTSPAccess`): with tokens, user `onair` and any token as password (Digest;
/// Basic too where Basic is allowed); users of the config file with their own name and password
/// by Basic only, and Basic is allowed only over RTSPS and on a loopback listener — the password
/// crosses the network inside TLS or not at all (Digest would need the password or its MD5 stored,
/// not an argon2id hash). A user needs the `read` permission and an allowed address. Wrong
/// credentials count against the address like the HTTP faces' failures; a blocked address gets
/// 403. A client remembers what admitted it, and a reload that withdraws it cuts the client.
/// GStreamer is started only when this face is made.
package final class ServeRTSPFace: RTSPServerDelegate, Sendable {
    /// The user name RTSP clients give with the token as password.
    public static let user = "onair"
    /// The TCP port plain RTSP listens on (0 when plain RTSP is off).
    public var port: Int { state.withLock { $0.servers.plain }?.port ?? 0 }
    /// The TCP port RTSPS listens on, nil without RTSPS.
    public var tlsPort: Int? { state.withLock { $0.servers.tls }?.port }
    private let hub: ServeHub
    /// The elementary streams by served path: `/live` and each further encode's (`/sub`).
    private let sources: [String: ServeElementarySink]
    private let feeders = DispatchGroup()
    private let access = ServeRTSPAccess()
    /// Whether clients need credentials at all: fixed at start.
    private let asksCredentials: Bool
    private struct State {
        var servers: (plain: RTSPServer?, tls: RTSPServer?) = (nil, nil)
        var feeds: [UInt: ServeRTSPFeed] = [:]
        /// Whether any token is listed now.
        var hasTokens = true
        var stillAdmits: (@Sendable (ServeCredential) -> Bool)?
    }

    private let state = Locked(State())

    /// Listens on `configuration.host`:`port` (0 picks one; nil: no plain RTSP, or only on
    /// loopback as `configuration.rtspPlain` says when TLS is on) and, with `tls` (the certificate
    /// and key, PEM), RTSPS on `tlsPort`, for the streams `source` publishes at `/live` and each of
    /// `renditions` publishes at `/` and its rendition's name (`/sub`).
    public init(
        configuration: ServeConfiguration, port: Int?, tlsPort: Int? = nil, tls: String? = nil, hub: ServeHub,
        source: ServeElementarySink, renditions: [ServeElementarySink] = []
    ) throws {
        for given in [port, tlsPort].compactMap({ $0 }) where !(0...65_535).contains(given) {
            throw SettingsError(field: "rtspPort", value: "\(given)", allowed: "0…65535")
        }
        self.hub = hub
        var sources = [ServeRTSPPipeline.path: source]
        for rendition in renditions { sources["/" + rendition.rendition] = rendition }
        self.sources = sources
        asksCredentials = !configuration.tokens.isEmpty || !configuration.users.isEmpty
        let codecs = Set(([source] + renditions).map(\.codec))
        try GStreamerLibrary.require(elements: ["appsrc", "rtpmp4gpay"] + codecs.map { $0 == .h265 ? "rtph265pay" : "rtph264pay" })
        let launch = { (sink: ServeElementarySink) in
            ServeRTSPPipeline.launch(streams: sink.streams, codec: sink.codec, timelineStart: configuration.timelineStart)
        }
        var settings = RTSPServerConfiguration(launch: launch(source))
        settings.path = ServeRTSPPipeline.path
        settings.otherPaths = renditions.map { "/" + $0.rendition }
        // A further encode in another codec (main H.265, sub H.264) has a payloader of its own.
        for rendition in renditions where rendition.codec != source.codec {
            settings.pathLaunches["/" + rendition.rendition] = launch(rendition)
        }
        // Each server its own credential check (Basic where it cannot leak), nil when none is asked.
        let hooks = asksCredentials ? access.hooks : nil
        let token = configuration.token
        let keys = { (allowBasic: Bool, basicOnly: Bool) -> RTSPKeys? in
            guard token != nil || hooks != nil else { return nil }
            return RTSPKeys(user: Self.user, password: token, allowBasic: allowBasic, offersDigest: !basicOnly, access: hooks)
        }
        settings.sessionTimeout = max(10, Int(configuration.limits.viewerTimeout.inSeconds.rounded(.up)) * 2)
        settings.contentLengthLimit = 16 * 1024
        settings.connectionLimit = configuration.limits.maxViewers + 64
        settings.connectionPolicy = RTSPGuardPolicy(limits: .init(settings))
        settings.requestRules = RTSPRequestRules(paths: [settings.path] + settings.otherPaths, headerLimit: settings.headerLimit)
        let plain = Self.plainHost(configuration, tls: tls != nil)
        if let port, let host = plain {
            var clear = settings
            clear.host = host
            clear.port = port
            let allowBasic = ServeConfiguration.isLoopback(host)
            clear.keys = keys(allowBasic, allowBasic && !configuration.users.isEmpty)
            let server = try RTSPServer(configuration: clear, delegate: self)
            state.withLock { $0.servers.plain = server }
        }
        if let tlsPort, let tls {
            var secure = settings
            secure.host = configuration.host
            secure.port = tlsPort
            secure.keys = keys(true, !configuration.users.isEmpty)
            secure.tlsPEM = tls
            do {
                let server = try RTSPServer(configuration: secure, delegate: self)
                state.withLock { $0.servers.tls = server }
            } catch {
                state.withLock { $0.servers.plain }?.stop()
                throw error
            }
        }
    }

    /// Where plain RTSP listens: the listen address without TLS; with TLS, as `rtspPlain` says
    /// (loopback by default), nil when off.
    package static func plainHost(_ configuration: ServeConfiguration, tls: Bool) -> String? {
        guard tls else { return configuration.host }
        switch configuration.rtspPlain {
        case .on: return configuration.host
        case .off: return nil
        case .loopback: return configuration.isLoopback ? configuration.host : (configuration.host.contains(":") ? "::1" : "127.0.0.1")
        }
    }

    /// The policy that judges users' credentials and counts failures (the HTTP server's).
    func setAccess(_ policy: ServeAccessPolicy) {
        access.set(policy)
    }

    /// Presents a new certificate and key (PEM) to RTSPS connections from now on; those open keep theirs.
    func setTLS(_ pem: String) throws {
        try state.withLock { $0.servers.tls }?.setTLS(pem)
    }

    /// 200 while a viewer slot is free, else 503.
    package func rtspServer(admit client: RTSPClientHandle) -> Int {
        // Only a check here (gst-rtsp-server asks before it checks credentials): a client that
        // could not play now is not given a pipeline. The slot is taken at PLAY. An address
        // blocked for its failed logins gets 403 whatever it sends.
        if access.isBlocked(client.peer) { return 403 }
        return hasFreeSlot ? 200 : 503
    }

    private var hasFreeSlot: Bool { hub.statistics().totals.viewers < hub.limits.maxViewers }

    /// Starts the client's feed (it primes the pipeline for the SDP).
    package func rtspServer(configured media: RTSPClientMedia) {
        guard let source = sources[media.path] ?? sources[ServeRTSPPipeline.path] else { return endSources(of: media) }
        let feed = ServeRTSPFeed(media: media, source: source)
        let running = state.withLock { state in
            let running = state.servers.plain != nil || state.servers.tls != nil
            if running { state.feeds[media.identifier] = feed }
            return running
        }
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
        let servers = state.withLock { state in
            state.stillAdmits = stillAdmits
            state.hasTokens = !tokens.isEmpty
            return [state.servers.plain, state.servers.tls].compactMap { $0 }
        }
        guard asksCredentials else { return false }
        let keys = tokens.map { (password: $0.secret, number: $0.number) }
        return servers.map { $0.setKeys(keys) }.allSatisfy { $0 } && !servers.isEmpty
    }

    /// Whether the face lets no one play any more: started open, it cannot ask for the tokens a
    /// reload added; started with tokens, a reload removed them all.
    var isLocked: Bool {
        let asksCredentials = self.asksCredentials
        let access = self.access
        return state.withLock { state in
            asksCredentials ? !state.hasTokens && !access.hasUsers : !(state.stillAdmits?(.anyone) ?? true)
        }
    }

    /// Every PLAY names its token: see `rtspServer(play:key:)`.
    public func rtspServer(play identifier: UInt) -> Int { rtspServer(play: identifier, key: 0) }

    /// Takes the client's viewer slot at its first PLAY, remembering the token (`key`, its number)
    /// that admitted it: 200, 403 when that token is no longer listed, or 503 when no slot is free.
    public func rtspServer(play identifier: UInt, key: Int) -> Int {
        let credential = access.credential(forKey: key)
        guard let feed = state.withLock({ $0.feeds[identifier] }) else { return 503 }
        do {
            let hub = self.hub
            try feed.play {
                try hub.openViewer(
                    format: .elementary, rendition: feed.rendition, transport: "rtsp", peer: feed.peer, credential: credential)
            }
            return 200
        } catch ServeRefusal.credentialWithdrawn {
            return 403
        } catch {
            return 503
        }
    }

    /// Names the client's transport in its statistics.
    public func rtspServer(media identifier: UInt, transport: String) {
        state.withLock { $0.feeds[identifier] }?.setTransport("rtsp/\(transport)")
    }

    /// Ends the client's feed, which gives its slot back.
    public func rtspServer(mediaEnded identifier: UInt) {
        state.withLock { $0.feeds.removeValue(forKey: identifier) }?.stop()
    }

    /// Nothing: the client's media end too, and that ends its feed.
    public func rtspServer(clientClosed identifier: UInt) {}

    private func endSources(of media: RTSPClientMedia) {
        media.video?.end()
        media.audio?.end()
    }

    /// Closes every client, stops listening and waits for the feeds to end.
    public func stop() {
        let (servers, open) = state.withLock { state in
            defer { (state.servers, state.feeds) = ((nil, nil), [:]) }
            return (state.servers, Array(state.feeds.values))
        }
        servers.plain?.stop()
        servers.tls?.stop()
        for feed in open { feed.stop() }
        feeders.wait()
    }
}
#endif
#endif
