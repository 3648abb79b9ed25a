#if os(Linux)
import COnAirNet
import Foundation
import Glibc

/// The few socket calls an event-driven server makes, each non-blocking and close-on-exec, with
/// errors thrown as `POSIXError` naming nothing secret.
package enum NetSocket {
    /// A TCP socket listening on `address` (port 0: one the kernel picks; read it back with
    /// `SocketAddress(of:peer: false)`).
    package static func listenTCP(_ address: SocketAddress, backlog: Int32 = 128) throws -> Int32 {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw lastError() }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockAddr { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let error = lastError()
            close(fd)
            throw error
        }
        return fd
    }

    /// A UDP socket bound to `address` (port 0: one the kernel picks).
    package static func bindUDP(_ address: SocketAddress) throws -> Int32 {
        let fd = socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw lastError() }
        guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else {
            let error = lastError()
            close(fd)
            throw error
        }
        return fd
    }

    /// Two UDP sockets on consecutive ports, the first even (RTP and RTCP, RFC 3550 §11), on
    /// `host`; tries ports the kernel picks until a pair is free.
    package static func bindUDPPair(_ host: SocketAddress) throws -> (rtp: Int32, rtcp: Int32, port: Int) {
        var lastFailure: Error = POSIXError(.EADDRINUSE)
        for _ in 0..<64 {
            let probe = try bindUDP(host.with(port: 0))
            guard let port = SocketAddress(of: probe, peer: false)?.port else {
                close(probe)
                throw POSIXError(.EIO)
            }
            close(probe)
            let even = port & ~1
            guard even > 0, even < 65_535 else { continue }
            do {
                let rtp = try bindUDP(host.with(port: even))
                do {
                    let rtcp = try bindUDP(host.with(port: even + 1))
                    return (rtp, rtcp, even)
                } catch {
                    close(rtp)
                    lastFailure = error
                }
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure
    }

    /// The next connection waiting on listener `fd` (non-blocking, close-on-exec) and its peer;
    /// nil when none is waiting (or it vanished).
    package static func accept(_ fd: Int32) -> (fd: Int32, peer: SocketAddress)? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &address) { onair_net_accept(fd, $0, &length) }
        guard client >= 0 else { return nil }
        let peer: SocketAddress? = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
        }
        guard let peer else {
            close(client)
            return nil
        }
        return (client, peer)
    }

    /// Sets an integer socket option (failures ignored: each use is a tuning, not a need).
    package static func set(_ fd: Int32, level: Int32, option: Int32, to value: Int32) {
        var value = value
        _ = setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends `parts` as one datagram to `address`; false when the kernel did not take it (a full
    /// buffer drops the datagram, as UDP would on the wire).
    package static func send(_ fd: Int32, to address: SocketAddress, parts: [UnsafeRawBufferPointer]) -> Bool {
        var vectors = parts.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        return address.withSockAddr { pointer, length in
            vectors.withUnsafeMutableBufferPointer { vectors in
                var message = msghdr()
                message.msg_name = UnsafeMutableRawPointer(mutating: pointer)
                message.msg_namelen = length
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = vectors.count
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL)) >= 0
            }
        }
    }

    /// The error `errno` holds.
    package static func lastError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
#endif
