#if os(Linux)
import Foundation

/// A WHIP endpoint (RFC 9725) as `onair stream` names it: `whip+http://host:port/path` or
/// `whip+https://…` — the `whip+` prefix says the HTTP(S) URL after it takes a WHIP offer.
package struct WHIPEndpoint: Sendable, Equatable {
    /// The scheme prefix that marks a WHIP endpoint.
    public static let prefix = "whip+"
    /// The output as named (`whip+http://…`).
    public let name: String
    /// The HTTP URL the offer is posted to.
    public let url: String
    /// Host, port and path (with query) of `url`.
    public let host: String, port: Int, path: String
    /// Whether the URL is `https` (the offer and answer, with their DTLS fingerprints and the
    /// token, travel inside TLS, the server's certificate checked).
    public let isSecure: Bool

    /// Whether `output` names a WHIP endpoint (case-insensitive prefix).
    public static func accepts(_ output: String) -> Bool {
        output.lowercased().hasPrefix(prefix)
    }

    /// Parses `whip+http://host[:port]/path` or `whip+https://…`; throws `StreamError.unsupportedURL` saying what is wrong.
    public init(parsing output: String) throws(StreamError) {
        guard Self.accepts(output) else { throw .unsupportedURL(output, reason: "not a whip+http:// URL") }
        let http = String(output.dropFirst(Self.prefix.count))
        guard let components = URLComponents(string: http), let scheme = components.scheme?.lowercased() else {
            throw .unsupportedURL(output, reason: "not a URL after whip+")
        }
        guard scheme == "http" || scheme == "https" else {
            throw .unsupportedURL(output, reason: "a WHIP endpoint is whip+http://host:port/path or whip+https://…")
        }
        guard let host = components.host, !host.isEmpty else { throw .unsupportedURL(output, reason: "no host") }
        isSecure = scheme == "https"
        let port = components.port ?? (isSecure ? 443 : 80)
        guard (1...65_535).contains(port) else { throw .unsupportedURL(output, reason: "port \(port) out of range") }
        name = output
        url = http
        self.host = host
        self.port = port
        let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
        path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
    }

    /// The absolute path of a `Location` the server answered with (RFC 9725: it may be relative to
    /// the endpoint, or absolute on the same server); nil for one on another server.
    public func resourcePath(location: String) -> String? {
        if location.hasPrefix("/") { return location }
        if let components = URLComponents(string: location), let scheme = components.scheme {
            guard scheme.lowercased() == (isSecure ? "https" : "http"), components.host?.lowercased() == host.lowercased(),
                (components.port ?? (isSecure ? 443 : 80)) == port
            else { return nil }
            let query = components.percentEncodedQuery.map { "?" + $0 } ?? ""
            return (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + query
        }
        // Relative to the endpoint's directory.
        let base = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let directory = base.hasSuffix("/") ? base : String(base[...(base.lastIndex(of: "/") ?? base.startIndex)])
        return (directory.isEmpty ? "/" : directory) + location
    }
}
#endif
