#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirHTTP)
import OnAirHTTP
import OnAirLive
import OnAirStreaming

/// The HTTP face of `onair serve`: routes requests to the hub's streams, the HLS files, the
/// statistics and the index page, with the access policy's verdict (users, token) on every path.
///
/// Served: `/` (a page), `/live.ts`, `/live.mp4` (continuous), `/live.m3u8` and its
/// `segment_N.ts` files, `/stats.json`; with a recording `/list`, `/get` and the media of a span's
/// HLS playlist (`/playback/ID.mp4`). Anything else is 404; no directory is ever listed.
package final class ServeServer: Sendable {
    /// The configuration in force.
    public let configuration: ServeConfiguration
    private let hub: ServeHub
    private let hlsDirectory: String?
    private let state = Locked(State())
    private let srtPort: Int?
    private let whep: WHEPEndpoint?
    /// WHEP of each further encode (`/sub/whep`), by the path before `/whep`.
    private let renditionWHEP: [String: WHEPEndpoint]
    /// The endpoint that answers for an encode WebRTC does not carry (H.265): the main encode's,
    /// else the first further encode's with a face; nil when no encode has one.
    private let whepStandIn: WHEPEndpoint?
    /// The certificate served over HTTPS, when TLS is on.
    package let tls: ServeTLS.Loaded?
    /// Who may do what (users, the token, failures per address).
    package let access: ServeAccessPolicy
    /// The further encodes' names (`/sub.ts`, … : `ServeRenditionRoute`).
    private let renditions: [String]

    private struct State {
        var encoderStatistics: (@Sendable () -> LiveStatistics?)?
        var server: HTTPServer?
        /// The plain-HTTP listener that only redirects to HTTPS (`redirectListen`), or nil.
        var redirect: HTTPServer?
        /// libmicrohttpd's latest messages (the last 16) and how many it gave, for `/stats.json`.
        var messages: [String] = []
        var messageCount = 0
        /// The recording's playback (`/list`, `/get`), when the session records in segments.
        var playback: RecordingPlayback?
        /// `/snapshot.jpg`, when set.
        var snapshot: ServeSnapshot?
        /// `/NAME/snapshot.jpg` of each further encode, when set.
        var renditionSnapshots: [String: ServeSnapshot] = [:]
        /// `/metrics`, `/healthz`, `/readyz` (issue 33), answered before the token check to the address ranges allowed.
        var observability: ServeObservability?
        /// The discontinuities encode restarts put in `/live.m3u8` (set by the owner of the HLS sink).
        var hlsDiscontinuities: ServeHLSDiscontinuities?
        /// The encodes' variants `/index.m3u8` lists, the main one first.
        var hlsVariants: [(uri: String, variant: ServeHLSVariant)] = []
        /// The Low-Latency HLS feeds of the encodes that have one, by name (`ServeLowLatencyHLS`).
        var lowLatencyHLS = ServeLowLatencyHLS(feeds: [:])
        /// The ONVIF services under `/onvif/` (`--onvif`), when set.
        var onvif: ONVIFService?
        /// WS-Discovery for the ONVIF device (`--onvif-discovery`), when running.
        var discovery: WSDiscoveryResponder?
        /// The ONVIF services' own plain-HTTP listener (`--onvif-listen`), or nil.
        var onvifListener: HTTPServer?
    }

    /// Starts listening. `hlsDirectory` holds the live HLS playlist `stream.m3u8` and its segments.
    /// `loadedTLS`: `configuration.tls` already read (by an owner that shares it with RTSPS), else
    /// it is read here.
    public init(
        configuration: ServeConfiguration, hub: ServeHub, hlsDirectory: String?, srtPort: Int? = nil,
        webRTC: WebRTCFace? = nil, renditionFaces: [String: WebRTCFace] = [:], loadedTLS: ServeTLS.Loaded? = nil
    ) throws {
        self.configuration = configuration
        self.hub = hub
        renditions = hub.renditions
        access = ServeAccessPolicy(users: configuration.users, tokens: configuration.tokens, openAddresses: configuration.openAddresses)
        // The access policy checks WHEP's credentials before the endpoint sees a request.
        // The hub's viewers and those of every other face count against `maxViewers`.
        let faces = [webRTC].compactMap { $0 } + renditionFaces.values
        let endpoint = { (face: WebRTCFace, prefix: String) in
            var endpoint = WHEPEndpoint(face: face, token: nil, maxViewers: configuration.limits.maxViewers) { [hub] in
                hub.statistics().viewers.count + faces.filter { $0 !== face }.map(\.viewerCount).reduce(0, +)
            }
            endpoint.pathPrefix = prefix
            return endpoint
        }
        whep = webRTC.map { endpoint($0, "") }
        renditionWHEP = Dictionary(uniqueKeysWithValues: renditionFaces.map { ("/" + $0.key, endpoint($0.value, "/" + $0.key)) })
        whepStandIn = whep ?? renditionWHEP.min { $0.key < $1.key }?.value
        self.hlsDirectory = hlsDirectory
        self.srtPort = srtPort
        var http = HTTPServerConfiguration(address: try HTTPListenAddress(host: configuration.host, port: configuration.port))
        // Room for every viewer plus requests for pages, playlists, segments and statistics.
        http.connectionLimit = configuration.limits.maxViewers + 64
        http.perAddressLimit = configuration.perAddressLimit
        http.idleTimeout = max(1, Int(configuration.limits.viewerTimeout.inSeconds.rounded(.up)) + 5)
        http.connectionMemoryLimit = 32 * 1024
        http.sendBufferBytes = 64 * 1024
        tls = try loadedTLS ?? configuration.tls?.load(host: configuration.host)
        http.tls = tls?.credentials
        if configuration.webRTC != nil { http.methods.formUnion(WHEPEndpoint.methods) }
        if configuration.onvif != nil { http.methods.insert("POST") }  // SOAP
        let server = try HTTPServer(
            configuration: http, messages: { [weak self] line in self?.record(line) },
            handler: { [weak self] request in self?.answer(request) ?? .text(503, "stopping") })
        state.withLock { $0.server = server }
        if let listen = configuration.redirectListen {
            guard tls != nil else {
                server.stop()
                throw ServeTLSError("--redirect-listen redirects to HTTPS: it needs --tls-cert/--tls-key or --tls-self-signed")
            }
            do {
                let redirect = try ServeRedirect.start(listen: listen, host: configuration.host, httpsPort: server.port)
                state.withLock { $0.redirect = redirect }
            } catch {
                server.stop()
                throw error
            }
        }
        if let listen = configuration.onvif?.listen {
            do {
                let onvifListener = try ONVIFService.listen(on: listen) { [weak self] in
                    self?.answerONVIF($0, onOwnListener: true) ?? .text(503, "stopping")
                }
                state.withLock { $0.onvifListener = onvifListener }
            } catch {
                state.withLock { $0.redirect }?.stop()
                server.stop()
                throw error
            }
        }
    }

    /// The ONVIF listener's port (nil without one).
    package var onvifListenerPort: Int? { state.withLock { $0.onvifListener?.port } }

    /// The redirecting listener's port (nil without one).
    public var redirectPort: Int? { state.withLock { $0.redirect?.port } }

    private func record(_ message: String) {
        let line = message.trimmingCharacters(in: .whitespacesAndNewlines)
        state.withLock { state in
            state.messages.append(line)
            if state.messages.count > 16 { state.messages.removeFirst(state.messages.count - 16) }
            state.messageCount += 1
        }
    }

    /// Reads the TLS certificate and key again (a renewal) and presents them from the next handshake
    /// on; viewers already connected keep going. Returns the new certificate's fingerprint.
    public func reloadCertificate() throws -> String {
        try reloadedCertificate().fingerprint
    }

    /// `reloadCertificate()`, giving what was read (for RTSPS to present the same).
    package func reloadedCertificate() throws -> ServeTLS.Loaded {
        guard let source = configuration.tls, let server = state.withLock({ $0.server }) else { throw ServeTLSError("TLS is not on") }
        let loaded = try source.load(host: configuration.host)
        try server.reloadCertificate(loaded.credentials)
        return loaded
    }

    /// The port listened on.
    public var port: Int { state.withLock { $0.server }?.port ?? 0 }

    /// Where the figures of the encode come from, for `/stats.json`.
    public func setEncoderStatistics(_ provider: @escaping @Sendable () -> LiveStatistics?) {
        state.withLock { $0.encoderStatistics = provider }
    }

    /// Answers `/list` and `/get` from `playback` (the session's segmented recording).
    package func setPlayback(_ playback: RecordingPlayback) {
        state.withLock { $0.playback = playback }
    }

    /// Answers `/snapshot.jpg` from `snapshot`.
    package func setSnapshot(_ snapshot: ServeSnapshot) {
        state.withLock { $0.snapshot = snapshot }
    }

    /// Answers `/NAME/snapshot.jpg` of the further encode `rendition` from `snapshot`.
    package func setSnapshot(_ snapshot: ServeSnapshot, rendition: String) {
        state.withLock { $0.renditionSnapshots[rendition] = snapshot }
    }

    /// Answers the ONVIF services under `/onvif/` (their own credentials: WS-Security, HTTP Digest).
    package func setONVIF(_ service: ONVIFService) {
        state.withLock { $0.onvif = service }
    }

    /// Stops `responder` (its Bye) when the server stops.
    package func setDiscovery(_ responder: WSDiscoveryResponder) {
        state.withLock { $0.discovery = responder }
    }

    /// The statistics document as `/stats.json` gives it.
    public func statistics() -> ServeStatisticsDocument {
        let (provider, recent, count, server) = state.withLock { ($0.encoderStatistics, $0.messages, $0.messageCount, $0.server) }
        let figures = hub.statistics()
        var totals = figures.totals
        // WebRTC viewers live in their face, not the hub: their cuts at a token's removal count too.
        let faces = ([whep].compactMap { $0 } + renditionWHEP.values).map(\.face)
        totals.cutCredentialWithdrawn += faces.map(\.cutCredentialWithdrawn).reduce(0, +)
        return ServeStatisticsDocument(
            encoder: provider?(), totals: totals,
            requestsTimedOut: server?.requestsTimedOut ?? 0, httpMessages: count,
            recentHTTPMessages: recent, viewers: figures.viewers,
            webrtcViewers: faces.isEmpty ? nil : faces.flatMap { $0.statistics() })
    }

    /// Answers `/metrics`, `/healthz` and `/readyz` with `health` as judge and `motion`'s counts
    /// (see `ServeObservability`).
    package func serveObservability(health: ServeHealth?, motion: ServeMotion? = nil) {
        let observability = ServeObservability(
            metricsAddresses: configuration.metricsAddresses, healthAddresses: configuration.healthAddresses, health: health,
            maxViewers: configuration.limits.maxViewers, motion: motion
        ) { [weak self] in
            self?.statistics()
                ?? ServeStatisticsDocument(
                    encoder: nil, totals: .init(), requestsTimedOut: 0, httpMessages: 0, recentHTTPMessages: [], viewers: [])
        }
        state.withLock { $0.observability = observability }
    }

    /// Serves `/index.m3u8`, the multivariant playlist of `variants` (each encode's media playlist URI and its measure).
    package func serveHLSVariants(_ variants: [(uri: String, variant: ServeHLSVariant)]) {
        state.withLock { $0.hlsVariants = variants }
    }

    /// Serves the playlists of the encodes with a feed as Low-Latency HLS (`ServeLowLatencyHLS`).
    package func serveLowLatencyHLS(_ feeds: [String: LowLatencyHLSFeed]) {
        state.withLock { $0.lowLatencyHLS = ServeLowLatencyHLS(feeds: feeds) }
    }

    /// Serves `/live.m3u8` with the discontinuities `discontinuities` notes (see `ServeHLSSink`).
    package func serveHLSDiscontinuities(_ discontinuities: ServeHLSDiscontinuities) {
        state.withLock { $0.hlsDiscontinuities = discontinuities }
    }

    /// Ends every viewer's stream and stops listening.
    public func stop() {
        hub.close()
        state.withLock { $0.onvif }?.close()  // ONVIF's waiting PullMessages are answered, empty
        state.withLock { $0.discovery }?.stop()  // Bye
        let (server, redirect, onvifListener) = state.withLock { state in
            defer { (state.server, state.redirect, state.onvifListener) = (nil, nil, nil) }
            return (state.server, state.redirect, state.onvifListener)
        }
        redirect?.stop()
        onvifListener?.stop()
        server?.stop()
    }

    /// The ONVIF services' answer (their own credentials), 404 before they are set.
    private func answerONVIF(_ request: HTTPRequest, onOwnListener: Bool) -> HTTPResponse {
        guard let onvif = state.withLock({ $0.onvif }) else { return .text(404, "not found") }
        return onvif.answer(request, onOwnListener: onOwnListener) { path in
            image(of: state.withLock { path == ServeHub.main ? $0.snapshot : $0.renditionSnapshots[path] })
        }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let observability = state.withLock { $0.observability }
        if let response = observability?.answer(request, credentials: access.isOpen ? nil : { self.authorize($0) }) {
            return response
        }
        if ONVIFService.handles(request.path), state.withLock({ $0.onvif }) != nil { return answerONVIF(request, onOwnListener: false) }
        let whepRoute = whepRoute(request)
        if let (whep, inner) = whepRoute, let response = whep.answerCut(inner) { return response }
        let credential: ServeCredential
        switch admission(request) {
        case .refused(var refusal):
            // A page on another origin reads WHEP's 401/403/429 only with the CORS fields.
            if let (whep, _) = whepRoute { refusal.headers += whep.corsHeaders(origin: request.headers["origin"]) }
            return refusal
        case .allowed(let who):
            credential = who
        }
        // WHEP carries its credentials in a header, not in the query.
        if let (whep, inner) = whepRoute { return whep.answer(inner, credential: credential) }
        if configuration.webRTC != nil, isWHEPPath(request.path) { return Self.noWebRTC(request.path) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var refused = HTTPResponse.text(405, "method not allowed")
            refused.headers.append(("Allow", "GET, HEAD"))
            return refused
        }
        guard let path = HTTPPath(request.path) else { return .text(404, "not found") }
        // A client that came with ?token= gets it in the page's links and the playlist's URIs.
        let query =
            request.query["token"].flatMap { given in
                access.tokenNumber(given) != nil ? "?token=" + Self.percentEncoded(given) : nil
            } ?? ""
        if let route = ServeRenditionRoute(path.segments, renditions: renditions) {
            return answer(route, request: request, credential: credential, query: query)
        }
        switch path.segments {
        case []:
            var formats = ServeFormat.allCases.filter { hub.serves($0) && $0 != .elementary }.map { "live.\($0.rawValue)" }
            if hlsDirectory != nil { formats.append("live.m3u8") }
            let page = PreviewPage.html(formats: formats, srtPort: srtPort, query: query)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: .bytes(Array(page.utf8)))
        case ["live.ts"] where hub.serves(.mpegTS):
            return stream(.mpegTS, request: request, credential: credential)
        case ["live.mp4"] where hub.serves(.fragmentedMP4):
            return stream(.fragmentedMP4, request: request, credential: credential)
        case ["list"], ["get"]:
            let playback = state.withLock { $0.playback }
            guard let playback else { return .text(404, "not found") }
            hub.responseFinished()  // a stitched span's buffers are freed right after
            return path.segments == ["list"] ? playback.list(request, query: query) : playback.get(request, query: query)
        case let segments where segments.count == 2 && segments[0] == "playback":
            let playback = state.withLock { $0.playback }
            guard let playback else { return .text(404, "not found") }
            hub.responseFinished()
            return playback.media(named: segments[1], request: request)
        case ["snapshot.jpg"]:
            return image(of: state.withLock { $0.snapshot })
        case ["stats.json"]:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let body = (try? encoder.encode(statistics())).map { [UInt8]($0) } ?? Array("{}".utf8)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")],
                body: .bytes(body))
        case ["index.m3u8"] where hlsDirectory != nil:
            hub.responseFinished()
            let variants = state.withLock { $0.hlsVariants }.compactMap { $0.variant.variant(uri: $0.uri) }
            guard !variants.isEmpty else { return .text(404, "the playlist is not ready yet") }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl"), ("Cache-Control", "no-cache")],
                body: .bytes(Self.playlist(Array(HLSMultivariantPlaylist(variants: variants).text.utf8), query: query)))
        case ["live.m3u8"] where hlsDirectory != nil:
            hub.responseFinished()  // each HLS request's thread and copies are freed right after
            let lowLatency = state.withLock { $0.lowLatencyHLS }
            if lowLatency.serves(ServeHub.main) {
                return lowLatency.playlist(ServeHub.main, request: request, query: query, folder: "")
            }
            guard let hlsDirectory, let file = HLSFileServer.file(named: "stream.m3u8", in: hlsDirectory) else {
                return .text(404, "the playlist is not ready yet")
            }
            let tagged = state.withLock { $0.hlsDiscontinuities }?.playlist(file.bytes) ?? file.bytes
            return HTTPResponse(
                status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                body: .bytes(Self.playlist(tagged, query: query)))
        default:
            guard path.segments.count == 1, let hlsDirectory, Self.isSegmentName(path.segments[0]),
                let file = HLSFileServer.file(named: path.segments[0], in: hlsDirectory)
            else {
                return lowLatencyFile(ServeHub.main, path: path, directory: hlsDirectory) ?? .text(404, "not found")
            }
            hub.responseFinished()
            return lowLatencyFile(ServeHub.main, path: path, directory: hlsDirectory)
                ?? HTTPResponse(
                    status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                    body: .bytes(file.bytes))
        }
    }

    /// The access policy's verdict as a refusal, or nil when the request may go on.
    private func authorize(_ request: HTTPRequest) -> HTTPResponse? {
        if case .refused(let refusal) = admission(request) { return refusal }
        return nil
    }

    /// What the access policy says of a request: allowed (by what) or refused.
    private enum Admission {
        case allowed(ServeCredential)
        case refused(HTTPResponse)
    }

    /// The access policy's verdict on `request`. OPTIONS (CORS preflights) pass; `?token=` counts
    /// only on `takesQueryToken` paths.
    private func admission(_ request: HTTPRequest) -> Admission {
        guard request.method != "OPTIONS", !access.isOpen else { return .allowed(.anyone) }
        let takesToken =
            Self.takesQueryToken(request.path)
            || HTTPPath(request.path).map { ServeRenditionRoute($0.segments, renditions: renditions) != nil } == true
        let queryToken = takesToken ? request.query["token"] : nil
        let verdict = access.verdict(
            permission: ServeAccessPolicy.permission(forPath: request.path), address: ServeAccessPolicy.address(ofPeer: request.peer),
            authorization: request.headers["authorization"], queryToken: queryToken)
        switch verdict {
        case .allowed(let who): return .allowed(who)
        case .unauthorized:
            var refused = HTTPResponse.text(401, "credentials needed: Authorization Basic (a user) or Bearer (the token)")
            refused.headers.append(
                ("WWW-Authenticate", access.users.isEmpty ? "Bearer realm=\"onair\"" : "Basic realm=\"onair\", charset=\"UTF-8\""))
            return .refused(refused)
        case .forbidden(let reason): return .refused(.text(403, reason))
        case .tooManyFailures(let seconds):
            var refused = HTTPResponse.text(429, "too many failed logins from this address")
            refused.headers.append(("Retry-After", "\(seconds)"))
            return .refused(refused)
        }
    }

    /// The paths where `?token=` is still taken, because the clients of those URLs may be unable to
    /// send a header: players given a bare URL (VLC, `<video src>`, Safari's HLS with its segment
    /// URIs), the preview page's own requests, recordings' playback (MediaMTX's `/list` and
    /// `/get` URLs handed to players, and the media of a span's HLS playlist under `/playback/`)
    /// and `/snapshot.jpg` (a camera's still-image URL). Not WHEP
    /// and not `/metrics`: those need a header.
    static func takesQueryToken(_ path: String) -> Bool {
        ["/", "/live.ts", "/live.mp4", "/live.m3u8", "/index.m3u8", "/stats.json", "/list", "/get", "/snapshot.jpg"].contains(path)
            || (path.hasPrefix("/") && isSegmentName(String(path.dropFirst())))
            || (path.hasPrefix("/playback/") && RecordingPlayback.isMediaName(String(path.dropFirst("/playback/".count))))
    }

    /// The WHEP endpoint of a request and the request as it sees it (`/whep…`): `/whep` and its
    /// alias `/live/whep` the main encode's, `/sub/whep` a further encode's. An encode WebRTC does
    /// not carry (H.265) is answered by the stand-in's endpoint (the H.264 one), whose `Location`
    /// names its own path; nil when there is none.
    private func whepRoute(_ request: HTTPRequest) -> (WHEPEndpoint, HTTPRequest)? {
        if WHEPEndpoint.handles(request.path), let endpoint = whep ?? whepStandIn { return (endpoint, request) }
        let routes = renditionWHEP.merging(whep.map { ["/" + ServeHub.main: $0] } ?? [:]) { first, _ in first }
        for prefix in ["/" + ServeHub.main] + renditions.map({ "/" + $0 }) where request.path.hasPrefix(prefix + "/") {
            var inner = request
            inner.path = String(request.path.dropFirst(prefix.count))
            if WHEPEndpoint.handles(inner.path), let endpoint = routes[prefix] ?? whepStandIn { return (endpoint, inner) }
        }
        return nil
    }

    /// Whether `path` is a WHEP path of the main encode or a further one (`/whep`, `/live/whep`, `/sub/whep/ID`).
    private func isWHEPPath(_ path: String) -> Bool {
        WHEPEndpoint.handles(path)
            || (["/" + ServeHub.main] + renditions.map { "/" + $0 }).contains {
                path.hasPrefix($0 + "/") && WHEPEndpoint.handles(String(path.dropFirst($0.count)))
            }
    }

    /// WHEP for an encode WebRTC does not carry, with no H.264 encode beside it: 415 and why.
    static func noWebRTC(_ path: String) -> HTTPResponse {
        .text(
            415,
            "this stream is H.265 (HEVC), which WebRTC viewers are not sent (browsers decode H.264 over WebRTC): "
                + "serve an H.264 sub stream beside it (--sub-size WxH --sub-codec h264) and WHEP plays that")
    }

    /// A further encode's stream, playlist, segment or snapshot.
    private func answer(_ route: ServeRenditionRoute, request: HTTPRequest, credential: ServeCredential, query: String) -> HTTPResponse {
        switch route {
        case .stream(let rendition, let format):
            guard hub.serves(format, rendition: rendition) else { return .text(404, "not found") }
            return stream(format, rendition: rendition, request: request, credential: credential)
        case .playlist(let rendition):
            hub.responseFinished()
            let lowLatency = state.withLock { $0.lowLatencyHLS }
            if lowLatency.serves(rendition) {
                return lowLatency.playlist(rendition, request: request, query: query, folder: rendition + "/")
            }
            guard let hlsDirectory,
                let file = HLSFileServer.file(named: "stream.m3u8", in: Self.hlsDirectory(of: rendition, in: hlsDirectory))
            else { return .text(404, "the playlist is not ready yet") }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                body: .bytes(Self.playlist(file.bytes, query: query, folder: rendition + "/")))
        case .segment(let rendition, let name):
            guard let hlsDirectory else { return .text(404, "not found") }
            let folder = Self.hlsDirectory(of: rendition, in: hlsDirectory)
            if let response = state.withLock({ $0.lowLatencyHLS }).file(rendition, name: name, directory: folder) { return response }
            guard let file = HLSFileServer.file(named: name, in: folder) else { return .text(404, "not found") }
            hub.responseFinished()
            return HTTPResponse(
                status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")], body: .bytes(file.bytes))
        case .snapshot(let rendition):
            return image(of: state.withLock { $0.renditionSnapshots[rendition] })
        }
    }

    /// `snapshot`'s JPEG (404 without one, 503 before the first keyframe).
    private func image(of snapshot: ServeSnapshot?) -> HTTPResponse {
        guard let snapshot else { return .text(404, "not found") }
        hub.responseFinished()
        guard let image = try? snapshot.jpeg() else { return .text(503, "no picture yet") }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "image/jpeg"), ("Cache-Control", "no-cache")], body: .bytes(image))
    }

    private func stream(
        _ format: ServeFormat, rendition: String = ServeHub.main, request: HTTPRequest, credential: ServeCredential
    ) -> HTTPResponse {
        let viewer: ServeViewer
        do {
            viewer = try hub.openViewer(
                format: format, rendition: rendition, transport: "http", peer: request.peer, credential: credential)
        } catch ServeRefusal.credentialWithdrawn {
            return .text(401, "credentials needed: the token was withdrawn")
        } catch {
            var refused = HTTPResponse.text(503, "\(error)")
            refused.headers.append(("Retry-After", "5"))
            return refused
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", format.contentType), ("Cache-Control", "no-cache, no-store")],
            body: .stream(ServeHTTPStream(viewer)))
    }

    /// The main encode's HLS file at `path` (one segment, checked by `isSegmentName`) as the
    /// Low-Latency face serves it (held until a coming part exists), or nil without a feed.
    private func lowLatencyFile(_ rendition: String, path: HTTPPath, directory: String?) -> HTTPResponse? {
        guard let directory, path.segments.count == 1, Self.isSegmentName(path.segments[0]) else { return nil }
        return state.withLock { $0.lowLatencyHLS }.file(rendition, name: path.segments[0], directory: directory)
    }

    /// Where a further encode's live HLS is written: a folder named after it in the main one's.
    package static func hlsDirectory(of rendition: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(rendition)
    }

    /// The HLS files served: `segment_N.ts` as the HLS muxer names them, `segment_N.m4s` and the
    /// init sections `init.mp4`, `init_N.mp4` and the Low-Latency parts `part_N_P.m4s` as
    /// `FragmentedHLSWriter` names them.
    static func isSegmentName(_ name: String) -> Bool {
        let numbered = { (prefix: String, suffix: String) -> Bool in
            guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else { return false }
            let number = name.dropFirst(prefix.count).dropLast(suffix.count)
            return number.count <= 12 && number.allSatisfy { $0 >= "0" && $0 <= "9" }
        }
        if LowLatencyHLSPlaylist.partNumbers(name) != nil { return true }
        return name == "init.mp4" || numbered("segment_", ".ts") || numbered("segment_", ".m4s") || numbered("init_", ".mp4")
    }

    /// The playlist with `query` (the token) added to every URI (the URI lines and an
    /// `EXT-X-MAP`'s `URI`), and `folder` before it (a further encode's segments are under its
    /// name: `sub/segment_3.ts`).
    static func playlist(_ bytes: [UInt8], query: String, folder: String = "") -> [UInt8] {
        guard !query.isEmpty || !folder.isEmpty else { return bytes }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let rewritten = lines.map { line -> String in
            let text = String(line)
            if text.hasPrefix("#EXT-X-MAP:"), let start = text.range(of: "URI=\""),
                let close = text[start.upperBound...].firstIndex(of: "\"")
            {
                return text[..<start.upperBound] + folder + text[start.upperBound..<close] + query + text[close...]
            }
            return text.isEmpty || text.hasPrefix("#") ? text : folder + text + query
        }
        return Array(rewritten.joined(separator: "\n").utf8)
    }

    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
#endif
#endif
