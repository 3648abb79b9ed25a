import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports of the kernel's choosing, for tests (127.0.0.1 only).
public enum FreePort {
    /// A TCP (or, with `udp`, UDP) port the kernel just handed out on 127.0.0.1.
    public static func loopback(udp: Bool = false) throws -> Int {
        let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ToolError.failed("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ToolError.failed("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
