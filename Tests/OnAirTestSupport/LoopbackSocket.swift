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

#if os(Linux)
/// A TCP connection of the test's own to 127.0.0.1:`port` (blocking), with these socket buffer
/// sizes if given (set before connecting, so fixed: the kernel's autotuning does not grow them).
/// The caller closes the descriptor.
public func connectLoopback(port: Int, receiveBuffer: Int32? = nil, sendBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ToolError.failed("socket: \(String(cString: strerror(errno)))") }
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    if var size = sendBuffer { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw ToolError.failed("connect 127.0.0.1:\(port): \(reason)")
    }
    return fd
}
#endif
