#if os(Linux)
import Foundation
import OnAirServeConfig

#if canImport(OnAirHTTP)
import OnAirHTTP

/// The operator's paths of `onair serve`'s HTTP face: `/metrics` (Prometheus text), `/healthz`
/// (200 or 503 with a JSON reason) and `/readyz` (200 once listening). Each is answered without
/// the stream token to the address ranges allowed (`metrics-addresses`, `health-addresses`;
/// loopback by default); from elsewhere the access policy decides where credentials are set up
/// (the token or users), and 403 is the answer where none are; none reveals the stream.
package final class ServeObservability: Sendable {
    /// The paths answered here.
    package static let paths: Set<String> = ["/metrics", "/healthz", "/readyz"]
    /// Who may read `/metrics`.
    package let metricsAddresses: [ServeAddressRange]
    /// Who may read `/healthz` and `/readyz`.
    package let healthAddresses: [ServeAddressRange]
    /// The health judge.
    package let health: ServeHealth?
    private let document: @Sendable () -> ServeStatisticsDocument
    private let maxViewers: Int
    private let motion: ServeMotion?

    /// Paths over `document` (the `/stats.json` figures), `health` and `motion`'s counts.
    package init(
        metricsAddresses: [ServeAddressRange], healthAddresses: [ServeAddressRange], health: ServeHealth?, maxViewers: Int,
        motion: ServeMotion? = nil, document: @escaping @Sendable () -> ServeStatisticsDocument
    ) {
        self.motion = motion
        self.metricsAddresses = metricsAddresses
        self.healthAddresses = healthAddresses
        self.health = health
        self.maxViewers = maxViewers
        self.document = document
    }

    /// The answer for `request` when its path is one of `paths`, else nil. From an address outside
    /// the ranges, `credentials` decides when given (the server's access policy: the token, or a
    /// user with the `metrics` or `read` permission) — nil from it lets the request through, a
    /// response refuses it; without it such a request gets 403.
    package func answer(_ request: HTTPRequest, credentials: ((HTTPRequest) -> HTTPResponse?)? = nil) -> HTTPResponse? {
        guard Self.paths.contains(request.path) else { return nil }
        let host = ServeAddressRange.host(ofPeer: request.peer)
        let allowed = request.path == "/metrics" ? metricsAddresses : healthAddresses
        if !ServeAddressRange.any(allowed, contains: host) {
            guard let credentials else { return .text(403, "not from an allowed address") }
            if let refusal = credentials(request) { return refusal }
        }
        guard request.method == "GET" || request.method == "HEAD" else { return .text(405, "method not allowed") }
        switch request.path {
        case "/metrics":
            let text = ServeMetrics.text(
                document: document(), health: health, process: .current(), maxViewers: maxViewers, motion: motion?.figures)
            return HTTPResponse(
                status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8"), ("Cache-Control", "no-cache")],
                body: .bytes(Array(text.utf8)))
        case "/healthz":
            let verdict = health?.verdict() ?? ServeHealth.Verdict(status: "ok", reasons: [])
            return Self.json(verdict.isHealthy ? 200 : 503, verdict)
        default:
            return Self.json(200, ServeHealth.Verdict(status: "ready", reasons: []))
        }
    }

    private static func json(_ status: Int, _ verdict: ServeHealth.Verdict) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(verdict)).map { [UInt8]($0) } ?? Array("{}".utf8)
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-cache")], body: .bytes(body))
    }
}
#endif
#endif
