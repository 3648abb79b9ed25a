import Foundation

#if canImport(OnAirHTTP)
import OnAirHTTP
import OnAirLive
import OnAirStreaming

/// The HTTP face of `onair serve`: routes requests to the hub's streams, the HLS files, the
/// statistics and the index page, with the token check on every path.
///
/// Served: `/` (a page), `/live.ts`, `/live.mp4` (continuous), `/live.m3u8` and its
/// `segment_N.ts` files, `/stats.json`. Anything else is 404; no directory is ever listed.
package final class ServeServer: @unchecked Sendable {
    /// The configuration in force.
    public let configuration: ServeConfiguration
    private let hub: ServeHub
    private let hlsDirectory: String?
    private let lock = NSLock()
    private var encoderStatistics: (@Sendable () -> LiveStatistics?)?
    private var server: HTTPServer?
    private let srtPort: Int?
    private let whep: WHEPEndpoint?
    /// libmicrohttpd's latest messages (the last 16) and how many it gave, for `/stats.json`.
    private var messages: [String] = []
    private var messageCount = 0
    /// `/metrics`, `/healthz`, `/readyz` (issue 33), answered before the token check to the address ranges allowed.
    private var observability: ServeObservability?

    /// Starts listening. `hlsDirectory` holds the live HLS playlist `stream.m3u8` and its segments.
    public init(
        configuration: ServeConfiguration, hub: ServeHub, hlsDirectory: String?, srtPort: Int? = nil,
        webRTC: WebRTCFace? = nil
    ) throws {
        self.configuration = configuration
        self.hub = hub
        whep = webRTC.map { face in
            WHEPEndpoint(face: face, token: configuration.token, maxViewers: configuration.limits.maxViewers) { [hub] in
                hub.statistics().viewers.count
            }
        }
        self.hlsDirectory = hlsDirectory
        self.srtPort = srtPort
        var http = HTTPServerConfiguration(address: try HTTPListenAddress(host: configuration.host, port: configuration.port))
        // Room for every viewer plus requests for pages, playlists, segments and statistics.
        http.connectionLimit = configuration.limits.maxViewers + 64
        http.perAddressLimit = configuration.perAddressLimit
        http.idleTimeout = max(1, Int(configuration.limits.viewerTimeout.rounded(.up)) + 5)
        http.connectionMemoryLimit = 32 * 1024
        http.sendBufferBytes = 64 * 1024
        if webRTC != nil { http.methods.formUnion(WHEPEndpoint.methods) }
        let server = try HTTPServer(
            configuration: http, messages: { [weak self] line in self?.record(line) },
            handler: { [weak self] request in self?.answer(request) ?? .text(503, "stopping") })
        self.server = server
    }

    private func record(_ message: String) {
        lock.lock()
        messages.append(message.trimmingCharacters(in: .whitespacesAndNewlines))
        if messages.count > 16 { messages.removeFirst(messages.count - 16) }
        messageCount += 1
        lock.unlock()
    }

    /// The port listened on.
    public var port: Int { server?.port ?? 0 }

    /// Where the figures of the encode come from, for `/stats.json`.
    public func setEncoderStatistics(_ provider: @escaping @Sendable () -> LiveStatistics?) {
        lock.lock()
        encoderStatistics = provider
        lock.unlock()
    }

    /// The statistics document as `/stats.json` gives it.
    public func statistics() -> ServeStatisticsDocument {
        lock.lock()
        let provider = encoderStatistics
        let recent = messages, count = messageCount
        lock.unlock()
        let figures = hub.statistics()
        return ServeStatisticsDocument(
            encoder: provider?(), totals: figures.totals,
            requestsTimedOut: server?.requestsTimedOut ?? 0, httpMessages: count,
            recentHTTPMessages: recent, viewers: figures.viewers,
            webrtcViewers: whep?.face.statistics())
    }

    /// Answers `/metrics`, `/healthz` and `/readyz` with `health` as judge (see `ServeObservability`).
    package func serveObservability(health: ServeHealth?) {
        let observability = ServeObservability(
            metricsAddresses: configuration.metricsAddresses, healthAddresses: configuration.healthAddresses, health: health,
            maxViewers: configuration.limits.maxViewers
        ) { [weak self] in
            self?.statistics()
                ?? ServeStatisticsDocument(
                    encoder: nil, totals: .init(), requestsTimedOut: 0, httpMessages: 0, recentHTTPMessages: [], viewers: [])
        }
        lock.lock()
        self.observability = observability
        lock.unlock()
    }

    /// Ends every viewer's stream and stops listening.
    public func stop() {
        hub.close()
        lock.lock()
        let server = self.server
        self.server = nil
        lock.unlock()
        server?.stop()
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        let observability = self.observability
        lock.unlock()
        if let response = observability?.answer(request) { return response }
        // WHEP carries its token as a Bearer header, not in the query.
        if let whep, WHEPEndpoint.handles(request.path) { return whep.answer(request) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var refused = HTTPResponse.text(405, "method not allowed")
            refused.headers.append(("Allow", "GET, HEAD"))
            return refused
        }
        if let token = configuration.token {
            guard let given = request.query["token"] else { return .text(401, "this server needs ?token=") }
            guard Self.constantTimeEqual(given, token) else { return .text(403, "wrong token") }
        }
        guard let path = HTTPPath(request.path) else { return .text(404, "not found") }
        let query = configuration.token.map { "?token=" + Self.percentEncoded($0) } ?? ""
        switch path.segments {
        case []:
            var formats = ServeFormat.allCases.filter { hub.serves($0) && $0 != .elementary }.map { "live.\($0.rawValue)" }
            if hlsDirectory != nil { formats.append("live.m3u8") }
            let page = PreviewPage.html(formats: formats, srtPort: srtPort, query: query)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: .bytes(Array(page.utf8)))
        case ["live.ts"] where hub.serves(.mpegTS):
            return stream(.mpegTS, request: request)
        case ["live.mp4"] where hub.serves(.fragmentedMP4):
            return stream(.fragmentedMP4, request: request)
        case ["stats.json"]:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let body = (try? encoder.encode(statistics())).map { [UInt8]($0) } ?? Array("{}".utf8)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")],
                body: .bytes(body))
        case ["live.m3u8"] where hlsDirectory != nil:
            hub.responseFinished()  // each HLS request's thread and copies are freed right after
            guard let hlsDirectory, let file = HLSFileServer.file(named: "stream.m3u8", in: hlsDirectory) else {
                return .text(404, "the playlist is not ready yet")
            }
            return HTTPResponse(
                status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                body: .bytes(Self.playlist(file.bytes, query: query)))
        default:
            guard path.segments.count == 1, let hlsDirectory, Self.isSegmentName(path.segments[0]),
                let file = HLSFileServer.file(named: path.segments[0], in: hlsDirectory)
            else {
                return .text(404, "not found")
            }
            hub.responseFinished()
            return HTTPResponse(
                status: 200, headers: [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                body: .bytes(file.bytes))
        }
    }

    private func stream(_ format: ServeFormat, request: HTTPRequest) -> HTTPResponse {
        let viewer: ServeViewer
        do {
            viewer = try hub.openViewer(format: format, transport: "http", peer: request.peer)
        } catch {
            var refused = HTTPResponse.text(503, "\(error)")
            refused.headers.append(("Retry-After", "5"))
            return refused
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", format.contentType), ("Cache-Control", "no-cache, no-store")],
            body: .stream(ServeHTTPStream(viewer)))
    }

    /// `segment_N.ts` as the HLS muxer names them.
    static func isSegmentName(_ name: String) -> Bool {
        guard name.hasPrefix("segment_"), name.hasSuffix(".ts") else { return false }
        let number = name.dropFirst("segment_".count).dropLast(".ts".count)
        return !number.isEmpty && number.count <= 12 && number.allSatisfy { $0 >= "0" && $0 <= "9" }
    }

    /// The playlist with `query` (the token) added to every URI line.
    static func playlist(_ bytes: [UInt8], query: String) -> [UInt8] {
        guard !query.isEmpty else { return bytes }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let rewritten = lines.map { line -> String in
            let text = String(line)
            return text.isEmpty || text.hasPrefix("#") ? text : text + query
        }
        return Array(rewritten.joined(separator: "\n").utf8)
    }

    private static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8), b = Array(right.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
#endif
