import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A socket of the test's own on 127.0.0.1, bound to port 0 (the system picks the port, read back
/// as `port`) and held until the object goes: a TCP listener that never accepts, or a UDP socket
/// that never reads — a peer that takes what is sent and does nothing with it.
public final class LoopbackSocket {
    /// The descriptor, for tests that use the socket further.
    public let descriptor: Int32
    /// The port the system gave it.
    public let port: Int

    /// Binds a TCP socket and listens (backlog 8), or with `udp` binds a UDP socket.
    public init(udp: Bool = false) throws {
        descriptor = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ToolError.failed("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (udp || listen(descriptor, 8) == 0) && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ToolError.failed("bind 127.0.0.1:0: \(reason)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
