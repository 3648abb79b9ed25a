#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A resolved socket address (IPv4 or IPv6) for libsrt's bind and connect calls.
struct SRTAddress {
    /// The raw address, large enough for any family.
    var storage = sockaddr_storage()
    /// The length of the meaningful part of `storage`.
    var length: socklen_t = 0

    /// Resolves `host` (a name or a numeric address) and `port` to the first usable address.
    static func resolve(host: String, port: UInt16, passive: Bool) throws(SRTError) -> SRTAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        #else
        hints.ai_socktype = SOCK_DGRAM
        #endif
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SRTError(code: -1, operation: "resolve \(host):\(port)", message: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var address = SRTAddress()
        let count = Int(first.pointee.ai_addrlen)
        withUnsafeMutableBytes(of: &address.storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: min(count, target.count)))
        }
        address.length = first.pointee.ai_addrlen
        return address
    }

    /// Calls `body` with the address as libsrt wants it.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, Int32) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), Int32(length))
        }
    }

    /// The numeric host and the port, e.g. ("127.0.0.1", 9000).
    var hostAndPort: (host: String, port: UInt16) {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let status = withSockaddr { pointer, length in
            getnameinfo(
                pointer, socklen_t(length), &host, socklen_t(host.count), &service, socklen_t(service.count),
                NI_NUMERICHOST | NI_NUMERICSERV)
        }
        guard status == 0 else { return ("?", 0) }
        return (Self.text(host), UInt16(Self.text(service)) ?? 0)
    }

    /// The text of a NUL-terminated C buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
