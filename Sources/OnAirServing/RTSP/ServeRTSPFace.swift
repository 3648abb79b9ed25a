#if os(Linux)
#if canImport(OnAirHTTP)
import Foundation
import OnAirCore
import OnAirHTTP

/// The RTSP face of `onair serve`: `rtsp://host:port/live` on OnAir's own server
/// (`RTSPLiveServer`): one event-loop thread for every client, each track packetized once, and
/// each client fed from its own viewer queue in the hub (the elementary form), so a slow client
/// skips and is cut without touching anyone else.
///
/// Two servers over the same media when TLS is on: RTSPS (`rtsps://host:tlsPort/live`, the media
/// inside the TLS connection as RTP interleaved over TCP, never plain RTP beside it) and plain RTSP
/// as `ServeConfiguration.rtspPlain` says (by default on loopback only).
///
/// Admission: a client takes a viewer slot at its first PLAY and gives it back at TEARDOWN,
/// session timeout or disconnect; `maxViewers` counts PLAYing RTSP clients with the HTTP, SRT and
/// WebRTC viewers, and a client beyond it gets 503 Service Unavailable — at DESCRIBE when every
/// slot is taken then, at PLAY when the slots filled since. A client that has DESCRIBEd or SET UP
/// but not PLAYed holds none.
///
/// Credentials (`ServeRTSPAccess`): with tokens, user `onair` and any token as password (Digest;
/// Basic too where Basic is allowed); users of the config file with their own name and password
/// by Basic only, and Basic is allowed only over RTSPS and on a loopback listener — the password
/// crosses the network inside TLS or not at all (Digest would need the password or its MD5 stored,
/// not an argon2id hash). A user needs the `read` permission and an allowed address. Wrong
/// credentials count against the address like the HTTP faces' failures; a blocked address gets
/// 403. A client remembers what admitted it, and a reload that withdraws it cuts the client.
package final class ServeRTSPFace: Sendable {
    /// The user name RTSP clients give with the token as password.
    public static let user = "onair"
    /// The TCP port plain RTSP listens on (0 when plain RTSP is off).
    public var port: Int { state.withLock { $0.servers.plain }?.port ?? 0 }
    /// The TCP port RTSPS listens on, nil without RTSPS.
    public var tlsPort: Int? { state.withLock { $0.servers.tls }?.port }
    private let hub: ServeHub
    private let access = ServeRTSPAccess()
    /// Whether clients need credentials at all: fixed at start.
    private let asksCredentials: Bool
    /// The certificate RTSPS presents (replaced on a renewal).
    private let slot: HTTPTLSSlot?
    /// The one thread both servers run on.
    private let loop: SocketEventLoop
    private struct State {
        var servers: (plain: RTSPLiveServer?, tls: RTSPLiveServer?) = (nil, nil)
        /// Whether any token is listed now.
        var hasTokens = true
        var stillAdmits: (@Sendable (ServeCredential) -> Bool)?
        var keys: (plain: RTSPKeys?, tls: RTSPKeys?) = (nil, nil)
    }

    private let state = Locked(State())

    /// Listens on `configuration.host`:`port` (0 picks one; nil: no plain RTSP, or only on
    /// loopback as `configuration.rtspPlain` says when TLS is on) and, with `tls` (the certificate
    /// and key), RTSPS on `tlsPort`, for the streams `source` publishes at `/live` and each of
    /// `renditions` publishes at `/` and its rendition's name (`/sub`).
    public init(
        configuration: ServeConfiguration, port: Int?, tlsPort: Int? = nil, tls: HTTPTLSCredentials? = nil, hub: ServeHub,
        source: ServeElementarySink, renditions: [ServeElementarySink] = []
    ) throws {
        for given in [port, tlsPort].compactMap({ $0 }) where !(0...65_535).contains(given) {
            throw SettingsError(field: "rtspPort", value: "\(given)", allowed: "0…65535")
        }
        self.hub = hub
        var sources = ["/live": source]
        for rendition in renditions { sources["/" + rendition.rendition] = rendition }
        asksCredentials = !configuration.tokens.isEmpty || !configuration.users.isEmpty
        slot = try tls.map { try HTTPTLSSlot($0) }
        loop = try SocketEventLoop(name: "rtsp")
        var settings = RTSPLiveServer.Settings()
        settings.paths = sources
        settings.sessionTimeout = max(10, (configuration.limits.viewerTimeout.inSeconds * 2).rounded(.up))
        settings.connectionLimit = configuration.limits.maxViewers + 64
        settings.sharedTimestamps = configuration.timelineStart > 0
        // Each server its own credential check (Basic where it cannot leak), nil when none is asked.
        let hooks = asksCredentials ? access.hooks : nil
        let token = configuration.token
        let keys = { (allowBasic: Bool, basicOnly: Bool) -> RTSPKeys? in
            guard token != nil || hooks != nil else { return nil }
            return RTSPKeys(user: Self.user, password: token, allowBasic: allowBasic, offersDigest: !basicOnly, access: hooks)
        }
        let serverHooks = Self.hooks(hub: hub, access: access, sources: sources)
        do {
            if let port, let host = Self.plainHost(configuration, tls: tls != nil) {
                var clear = settings
                clear.host = host
                clear.port = port
                let allowBasic = ServeConfiguration.isLoopback(host)
                clear.keys = keys(allowBasic, allowBasic && !configuration.users.isEmpty)
                let server = try RTSPLiveServer(settings: clear, hooks: serverHooks, loop: loop)
                state.withLock {
                    $0.servers.plain = server; $0.keys.plain = clear.keys
                }
            }
            if let tlsPort, let slot {
                var secure = settings
                secure.host = configuration.host
                secure.port = tlsPort
                secure.keys = keys(true, !configuration.users.isEmpty)
                secure.tls = slot
                let server = try RTSPLiveServer(settings: secure, hooks: serverHooks, loop: loop)
                state.withLock {
                    $0.servers.tls = server; $0.keys.tls = secure.keys
                }
            }
        } catch {
            stop()
            throw error
        }
    }

    /// What the servers ask: admission at DESCRIBE (403 for a blocked address, 503 when every slot
    /// is taken; only a check, the slot is taken at PLAY), and the viewer at PLAY with what
    /// admitted the client.
    private static func hooks(hub: ServeHub, access: ServeRTSPAccess, sources: [String: ServeElementarySink]) -> RTSPLiveServer.Hooks {
        RTSPLiveServer.Hooks(
            admit: { peer in
                if access.isBlocked(peer) { return 403 }
                return hub.statistics().totals.viewers < hub.limits.maxViewers ? 200 : 503
            },
            play: { path, peer, key, transport throws(RTSPRefusal) in
                let credential = access.credential(forKey: key)
                do {
                    return try hub.openViewer(
                        format: .elementary, rendition: sources[path]?.rendition ?? ServeHub.main, transport: transport, peer: peer,
                        credential: credential)
                } catch ServeRefusal.credentialWithdrawn {
                    throw RTSPRefusal(status: 403)
                } catch {
                    throw RTSPRefusal(status: 503)
                }
            },
            log: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
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

    /// Presents a new certificate and key to RTSPS connections from now on; those open keep theirs.
    func setTLS(_ credentials: HTTPTLSCredentials) throws {
        try slot?.replace(with: credentials)
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
        let keys = state.withLock { state in
            state.stillAdmits = stillAdmits
            state.hasTokens = !tokens.isEmpty
            return [state.keys.plain, state.keys.tls].compactMap { $0 }
        }
        guard asksCredentials else { return false }
        for keyring in keys { keyring.setKeys(tokens.map { (password: $0.secret, number: $0.number) }) }
        return !keys.isEmpty
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

    /// Closes every client and stops listening.
    public func stop() {
        let servers = state.withLock { state in
            defer { state.servers = (nil, nil) }
            return state.servers
        }
        servers.plain?.stop()
        servers.tls?.stop()
        loop.stop()
    }
}
#endif
#endif
