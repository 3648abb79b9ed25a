#if os(Linux)
/// One HTTP request as the handler sees it: method, path, query, the peer's address, the header
/// fields a handler may look at (`HTTPRequest.headerNames`) and, for methods the server takes a body
/// with, the body (bounded by `HTTPServerConfiguration.maximumBodyBytes`).
package struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    package var method: String
    /// The path as sent (percent-escapes already decoded by libmicrohttpd), without the query.
    package var path: String
    /// The query's arguments (at most `HTTPRequest.maximumQueryItems`; later ones are left out).
    package var query: [String: String]
    /// The peer, as `ADDRESS:PORT`.
    package var peer: String

    /// The header fields handed to the handler, by lowercased name (others are not read).
    package var headers: [String: String]
    /// The request body (empty for GET and HEAD).
    package var body: [UInt8]

    /// How many query arguments are kept.
    package static let maximumQueryItems = 16
    /// The header fields read from each request (lowercased).
    package static let headerNames = [
        "authorization", "origin", "content-type", "access-control-request-method",
        "access-control-request-headers", "range", "host",
    ]

    /// Creates a request.
    package init(
        method: String, path: String, query: [String: String] = [:], peer: String = "?",
        headers: [String: String] = [:], body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.peer = peer
        self.headers = headers
        self.body = body
    }
}
#endif
