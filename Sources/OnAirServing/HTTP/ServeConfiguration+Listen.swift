#if os(Linux)
#if canImport(OnAirHTTP)
import OnAirHTTP

extension ServeConfiguration {
    /// Sets `host` and `port` from `ADDR:PORT`, `[V6ADDR]:PORT` or a bare `PORT` (on 127.0.0.1).
    public mutating func listen(on text: String) throws {
        let address = try HTTPListenAddress(parsing: text)
        host = address.host
        port = address.port
    }

    /// Whether only this machine can reach the server.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// Whether only this machine can reach a server listening on `host`.
    static func isLoopback(_ host: String) -> Bool {
        (try? HTTPListenAddress(host: host, port: 0))?.isLoopback ?? false
    }

    /// The base URL viewers use, e.g. `http://127.0.0.1:8080` (`https://` with TLS), for the port actually listened on.
    public func baseURL(port: Int) -> String {
        let scheme = tls == nil ? "http" : "https"
        return (try? HTTPListenAddress(host: host, port: port))?.url(scheme: scheme, port: port) ?? "\(scheme)://\(host):\(port)"
    }
}
#endif
#endif
