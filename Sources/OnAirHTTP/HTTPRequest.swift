/// One HTTP request as the handler sees it: method, path, query and the peer's address.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, …
    public var method: String
    /// The path as sent (percent-escapes already decoded by libmicrohttpd), without the query.
    public var path: String
    /// The query's arguments (at most `HTTPRequest.maximumQueryItems`; later ones are left out).
    public var query: [String: String]
    /// The peer, as `ADDRESS:PORT`.
    public var peer: String

    /// How many query arguments are kept.
    public static let maximumQueryItems = 16

    /// Creates a request.
    public init(method: String, path: String, query: [String: String] = [:], peer: String = "?") {
        self.method = method
        self.path = path
        self.query = query
        self.peer = peer
    }
}
