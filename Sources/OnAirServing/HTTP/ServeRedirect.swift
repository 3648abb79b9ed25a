#if os(Linux)
#if canImport(OnAirHTTP)
import Foundation
import OnAirHTTP

/// The plain-HTTP side of a TLS server (`--redirect-listen`): every request gets `308 Permanent
/// Redirect` to the same path on the HTTPS port. Nothing else is served in clear: no media, no
/// page, no credential check, and the query is left out of the new address (a token a client
/// put there has already crossed the network in clear once; it is not echoed back).
package enum ServeRedirect {
    /// Starts the listener on `listen` (`ADDR:PORT`), redirecting to port `httpsPort` of the host
    /// the client asked for (its `Host` header), or of `host` when it named none.
    package static func start(listen: String, host: String, httpsPort: Int) throws -> HTTPServer {
        var http = HTTPServerConfiguration(address: try HTTPListenAddress(parsing: listen))
        http.connectionLimit = 64
        http.idleTimeout = 5
        http.methods = ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"]
        return try HTTPServer(configuration: http) { request in
            HTTPResponse(
                status: 308,
                headers: [
                    ("Location", location(path: request.path, hostHeader: request.headers["host"], host: host, httpsPort: httpsPort)),
                    ("Cache-Control", "no-store"),
                ],
                body: .bytes(Array("use HTTPS\n".utf8)))
        }
    }

    /// `https://HOST:PORT/PATH`: the host from the request's `Host` header (its port dropped,
    /// IPv6 brackets kept) when it is a plain host name or address, else `host`.
    package static func location(path: String, hostHeader: String?, host: String, httpsPort: Int) -> String {
        var name = host.contains(":") ? "[\(host)]" : host
        if let header = hostHeader?.trimmingCharacters(in: .whitespaces), !header.isEmpty, header.utf8.count <= 255 {
            let hostPart: Substring
            if header.hasPrefix("[") {
                hostPart = header.split(separator: "]", maxSplits: 1).first.map { $0 + "]" } ?? Substring(header)
            } else {
                hostPart = header.split(separator: ":", maxSplits: 1).first ?? Substring(header)
            }
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-[]:"))
            if !hostPart.isEmpty, hostPart.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) {
                name = String(hostPart)
            }
        }
        // The path arrives decoded: escape it again for the header.
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/"
        return "https://\(name):\(httpsPort)\(escaped.hasPrefix("/") ? escaped : "/" + escaped)"
    }
}
#endif
#endif
