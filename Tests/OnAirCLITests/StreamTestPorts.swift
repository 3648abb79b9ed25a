#if os(Linux)
import Foundation
import OnAirTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Free loopback ports for streaming tests (127.0.0.1 only).
enum StreamTestPorts {
    /// A port the kernel just handed out for `type` (SOCK_STREAM or SOCK_DGRAM) on 127.0.0.1.
    static func free(udp: Bool = false) throws -> Int {
        try FreePort.loopback(udp: udp)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether a UDP socket is bound to `port` (read from /proc/net/udp and udp6).
    static func udpBound(_ port: Int) -> Bool {
        let needle = String(format: ":%04X ", port)
        return ["/proc/net/udp", "/proc/net/udp6"].contains { path in
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").contains { line in
                let fields = line.split(separator: " ")
                return fields.count > 1 && (fields[1] + " ").hasSuffix(needle)
            }
        }
    }
}

/// A streaming test's helper failed.
struct StreamTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif
