#if os(Linux)
import Foundation
import Glibc

/// An IPv4 or IPv6 socket address (numeric host and port), as the kernel takes and gives it.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as a `sockaddr_in` or `sockaddr_in6`, zero-padded.
    private var storage: [UInt8]

    /// The address of numeric `host` (IPv4 or IPv6, no names) and `port`; nil when `host` is not one.
    package init?(host: String, port: Int) {
        guard (0...65_535).contains(port) else { return nil }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(found) }
        guard let address = first.pointee.ai_addr else { return nil }
        self.init(address, length: first.pointee.ai_addrlen)
    }

    /// A copy of the kernel's `address` of `length` bytes; nil for a family other than IPv4 and IPv6.
    package init?(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let family = Int32(address.pointee.sa_family)
        let size = family == AF_INET ? MemoryLayout<sockaddr_in>.size : family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : 0
        guard size > 0, Int(length) >= size else { return nil }
        storage = Array(UnsafeRawBufferPointer(start: address, count: size))
    }

    /// The address of the socket `fd`'s peer (`peer`) or its own (`!peer`); nil when it has none.
    package init?(of fd: Int32, peer: Bool) {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        let copy: SocketAddress? = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
        }
        guard let copy else { return nil }
        self = copy
    }

    /// `AF_INET` or `AF_INET6`.
    package var family: Int32 {
        storage.withUnsafeBytes { Int32($0.load(as: sockaddr.self).sa_family) }
    }

    /// The port.
    package var port: Int {
        storage.withUnsafeBytes { raw in
            family == AF_INET
                ? Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
                : Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
        }
    }

    /// The same host with another port.
    package func with(port: Int) -> SocketAddress {
        var copy = self
        let value = UInt16(truncatingIfNeeded: port).bigEndian
        copy.storage.withUnsafeMutableBytes { raw in
            if family == AF_INET {
                raw.storeBytes(of: value, toByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self)
            } else {
                raw.storeBytes(of: value, toByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self)
            }
        }
        return copy
    }

    /// The numeric host ("127.0.0.1", "::1"; an IPv4-mapped IPv6 address as its IPv4 form).
    package var host: String {
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let result = withSockAddr { address, length in
            getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        }
        guard result == 0 else { return "?" }
        let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.hasPrefix("::ffff:") && host.contains(".") ? String(host.dropFirst(7)) : host
    }

    /// "host:port", with an IPv6 host in brackets.
    package var description: String {
        family == AF_INET6 && !host.contains(".") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Calls `body` with the address as the kernel takes it.
    package func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { raw in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
    }
}
#endif
