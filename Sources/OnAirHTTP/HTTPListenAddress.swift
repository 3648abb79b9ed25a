#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a server listens: an IPv4 or IPv6 address and a TCP port, parsed from `ADDR:PORT`,
/// `[V6ADDR]:PORT` or `PORT` (which means the loopback address 127.0.0.1).
package struct HTTPListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric host, e.g. `127.0.0.1` or `::1`.
    package var host: String
    /// The TCP port (0: the system picks one).
    package var port: Int

    /// Creates an address from its parts; `host` must be a numeric IPv4 or IPv6 address.
    package init(host: String = "127.0.0.1", port: Int) throws {
        guard (0...65_535).contains(port) else { throw HTTPServerError("port \(port) is not 0…65535", isInvalidSettings: true) }
        guard Self.isIPv4(host) || Self.isIPv6(host) else {
            throw HTTPServerError("'\(host)' is not a numeric IPv4 or IPv6 address", isInvalidSettings: true)
        }
        self.host = host
        self.port = port
    }

    /// Parses `ADDR:PORT`, `[V6ADDR]:PORT` or a bare `PORT` (on 127.0.0.1).
    package init(parsing text: String) throws {
        if let port = Int(text) {
            try self.init(port: port)
            return
        }
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw HTTPServerError("'\(text)' is not [ADDRESS]:PORT", isInvalidSettings: true)
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                throw HTTPServerError("'\(text)' is not ADDRESS:PORT", isInvalidSettings: true)
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText) else { throw HTTPServerError("'\(portText)' is not a port", isInvalidSettings: true) }
        try self.init(host: String(host), port: port)
    }

    /// Whether the address is IPv6.
    package var isIPv6: Bool { Self.isIPv6(host) }

    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    package var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

    /// The address as "host:port", with the host in brackets for IPv6 ("[::1]:8080").
    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// A URL base such as `http://127.0.0.1:8080` for the given port.
    package func url(scheme: String, port: Int) -> String {
        let shown = host == "0.0.0.0" ? "127.0.0.1" : (host == "::" ? "::1" : host)
        return isIPv6 && shown.contains(":") ? "\(scheme)://[\(shown)]:\(port)" : "\(scheme)://\(shown):\(port)"
    }

    /// Calls `body` with the address as a `sockaddr` (IPv4 or IPv6).
    func withSocketAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return try withUnsafePointer(to: &address) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// The numeric text of a peer's address (`127.0.0.1:50312`), or "?" when it has none.
    static func describe(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var raw = inet.pointee.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                return "\(Self.text(text)):\(UInt16(bigEndian: inet.pointee.sin_port))"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                var raw = inet.pointee.sin6_addr
                inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                return "[\(Self.text(text))]:\(UInt16(bigEndian: inet.pointee.sin6_port))"
            }
        default:
            return "?"
        }
    }

    /// The text before the first NUL of a C buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isIPv4(_ host: String) -> Bool {
        var raw = in_addr()
        return inet_pton(AF_INET, host, &raw) == 1
    }

    private static func isIPv6(_ host: String) -> Bool {
        var raw = in6_addr()
        return inet_pton(AF_INET6, host, &raw) == 1
    }
}
#endif
