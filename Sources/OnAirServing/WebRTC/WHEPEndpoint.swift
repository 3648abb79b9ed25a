#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirGStreamer
import OnAirHTTP

/// The HTTP side of WHEP (WebRTC-HTTP egress, draft-ietf-wish-whep) at `/whep`:
///
/// - `POST /whep` with an SDP offer (a place is reserved while it is answered, so simultaneous offers
///   cannot exceed `maxViewers`) (`Content-Type: application/sdp`) → `201 Created`, the SDP
///   answer and `Location: /whep/ID`; 400 for a bad offer (with why), 415 for another content type,
///   503 when `maxViewers` are watching over any transport.
/// - `DELETE /whep/ID` ends that session; an unknown ID (IDs are 128 random bits) gets 404.
/// - `PATCH` (trickle ICE, ICE restart) gets 405: candidates all travel in the offer and answer;
///   on an unknown session, 404 (how the preview page finds a restarted server).
/// - `OPTIONS` answers CORS preflights for the allowed origins.
/// - With a token, every request but OPTIONS needs `Authorization: Bearer TOKEN` (401 without, 403 wrong).
package struct WHEPEndpoint: Sendable {
    let face: WebRTCFace
    let token: String?
    let maxViewers: Int
    /// How many viewers the other transports serve now (the hub's count).
    let otherViewers: @Sendable () -> Int
    /// What comes before `/whep` in the sessions' `Location` (a further encode's `/sub`; "" for the main one).
    var pathPrefix = ""

    /// Whether `path` is the endpoint's.
    public static func handles(_ path: String) -> Bool { path == "/whep" || path.hasPrefix("/whep/") }

    /// The session a `DELETE` of `path` ends (`/whep/ID`), or nil.
    static func sessionID(_ path: String) -> String? {
        guard path.hasPrefix("/whep/") else { return nil }
        let id = path.dropFirst("/whep/".count)
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }

    /// A session a reload cut: its client's own `DELETE` ends nothing more and is not judged by
    /// the credentials that reload withdrew (a failed login otherwise, counted against the address).
    func answerCut(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "DELETE", let id = Self.sessionID(request.path), face.wasCut(id) else { return nil }
        var response = HTTPResponse.text(200, "ended (cut at a reload: its credentials were withdrawn)")
        response.headers += corsHeaders(origin: request.headers["origin"])
        return response
    }

    /// The methods the endpoint answers.
    public static let methods: Set<String> = ["POST", "DELETE", "PATCH", "OPTIONS"]

    /// An endpoint over `face`, admitting while fewer than `maxViewers` watch in all.
    public init(face: WebRTCFace, token: String?, maxViewers: Int, otherViewers: @escaping @Sendable () -> Int) {
        self.face = face
        self.token = token
        self.maxViewers = maxViewers
        self.otherViewers = otherViewers
    }

    /// Answers one request to `/whep` or below; a viewer it admits remembers `credential`.
    package func answer(_ request: HTTPRequest, credential: ServeCredential = .anyone) -> HTTPResponse {
        let origin = request.headers["origin"]
        var response = route(request, credential: credential)
        response.headers += corsHeaders(origin: origin)
        return response
    }

    private func route(_ request: HTTPRequest, credential: ServeCredential) -> HTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let id = segments.count == 2 ? String(segments.last!) : nil
        guard segments.first == "whep", segments.count <= 2, id.map({ !$0.isEmpty }) ?? true else { return .text(404, "not found") }
        if request.method == "OPTIONS" {
            if let origin = request.headers["origin"], !allows(origin) { return .text(403, "origin \(origin) is not allowed") }
            return HTTPResponse(status: 204, headers: [("Allow", "POST, DELETE, PATCH, OPTIONS")], body: .bytes([]))
        }
        if let refusal = checkToken(request) { return refusal }
        switch (request.method, id) {
        case ("POST", nil): return offer(request, credential: credential)
        case ("DELETE", let id?):
            return face.removeViewer(id) ? .text(200, "ended") : .text(404, "no such session")
        case ("PATCH", let id?) where !face.hasViewer(id):
            // A page asks this way whether its session lives (a restarted server forgot it).
            return .text(404, "no such session")
        case ("PATCH", _):
            var refused = HTTPResponse.text(405, "trickle ICE and ICE restarts are not supported: send every candidate in the offer")
            refused.headers.append(("Allow", id == nil ? "POST, OPTIONS" : "DELETE, OPTIONS"))
            return refused
        default:
            var refused = HTTPResponse.text(405, "method not allowed")
            refused.headers.append(("Allow", id == nil ? "POST, OPTIONS" : "DELETE, OPTIONS"))
            return refused
        }
    }

    private func offer(_ request: HTTPRequest, credential: ServeCredential) -> HTTPResponse {
        let type = request.headers["content-type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "application/sdp" else { return .text(415, "the offer must be Content-Type: application/sdp") }
        guard let text = String(validating: request.body, as: UTF8.self) else { return .text(400, "the offer is not UTF-8 text") }
        let choice: WebRTCCodecChoice
        do {
            let parsed = try WebRTCOffer(parsing: text)
            choice = try WebRTCCodecChoice(offer: parsed, profile: face.profile, streams: face.streams)
        } catch let problem as WebRTCOffer.Problem {
            return .text(400, problem.description)
        } catch {
            return .text(400, "\(error)")
        }
        guard face.reserve(maximum: maxViewers, others: otherViewers()) else {
            var full = HTTPResponse.text(503, "\(maxViewers) viewers are watching; try again later")
            full.headers.append(("Retry-After", "5"))
            return full
        }
        do {
            let (id, answer) = try face.addViewer(offer: text, peer: request.peer, choice: choice, credential: credential)
            return HTTPResponse(
                status: 201,
                headers: [
                    ("Content-Type", "application/sdp"), ("Location", "\(pathPrefix)/whep/\(id)"),
                    ("Cache-Control", "no-cache"),
                ],
                body: .bytes(Array(answer.utf8)))
        } catch {
            return .text(400, "the offer could not be answered: \(error)")
        }
    }

    private func checkToken(_ request: HTTPRequest) -> HTTPResponse? {
        guard let token else { return nil }
        guard let header = request.headers["authorization"], header.lowercased().hasPrefix("bearer ") else {
            var refused = HTTPResponse.text(401, "this server needs Authorization: Bearer TOKEN")
            refused.headers.append(("WWW-Authenticate", "Bearer"))
            return refused
        }
        let given = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return ConstantTime.equal(given, token) ? nil : .text(403, "wrong token")
    }

    private func allows(_ origin: String) -> Bool {
        face.configuration.allowedOrigins.contains("*") || face.configuration.allowedOrigins.contains(origin)
    }

    /// The CORS header fields for a request from `origin` (none for an origin not allowed).
    package func corsHeaders(origin: String?) -> [(name: String, value: String)] {
        guard let origin, allows(origin) else { return [] }
        let any = face.configuration.allowedOrigins.contains("*")
        return [
            ("Access-Control-Allow-Origin", any ? "*" : origin),
            ("Access-Control-Allow-Methods", "POST, DELETE, PATCH, OPTIONS"),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type"),
            ("Access-Control-Expose-Headers", "Location"),
            ("Access-Control-Max-Age", "600"),
        ] + (any ? [] : [("Vary", "Origin")])
    }
}
#endif
#endif
