#if os(Linux)
#if canImport(Glibc)
import Foundation
import Glibc
import OnAirLive

/// Reads a connected TCP socket's own figures: `TCP_INFO` (bytes acknowledged, RTT, delivery
/// rate) and `SIOCOUTQ` (bytes in the send queue). FFmpeg keeps its sockets to itself, so the
/// socket is found by its peer address among the process's descriptors (see `find`).
struct TCPSocketProbe: Sendable {
    /// The socket's descriptor (owned by FFmpeg; never closed here).
    let descriptor: Int32

    /// Offsets in the kernel's `struct tcp_info` (linux/tcp.h; the layout only grows at its end).
    private enum Offset {
        static let appLimitedFlags = 7, rtt = 68, totalRetransmits = 100, bytesAcknowledged = 120, notSent = 144
        static let minimumRTT = 148, deliveryRate = 160, size = 168
    }

    /// The kernel's `SIOCOUTQ` (= `TIOCOUTQ`): bytes in the send queue, unsent or unacknowledged.
    private static let outputQueueRequest: UInt = 0x5411

    /// Sets `SO_LINGER` to zero: closing the socket resets the connection at once instead of
    /// sending what its buffer still holds.
    func resetOnClose() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Sets `TCP_NOTSENT_LOWAT`: the kernel takes new bytes only while fewer than `bytes` of
    /// what it holds are unsent, so a slow link backs up in OnAir's queue (which adaptive bitrate
    /// and the backlog bound see and can cut) rather than in the socket's buffer. What is in
    /// flight is not limited. Returns whether the kernel accepted it.
    @discardableResult
    func limitUnsentBytes(_ bytes: Int) -> Bool {
        var value = Int32(clamping: bytes)
        return setsockopt(descriptor, Int32(IPPROTO_TCP), Self.notSentLowWaterMark, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// The kernel's `TCP_NOTSENT_LOWAT` (linux/tcp.h).
    private static let notSentLowWaterMark: Int32 = 25

    /// The process's open descriptors (from /proc/self/fd, else the first 4096 numbers).
    private static func openDescriptors() -> [Int32] {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            return names.compactMap { Int32($0) }
        }
        return Array(0..<4096)
    }

    /// The TCP sockets of this process connected to `host`:`port` (numeric or resolvable host),
    /// or (`host` nil) accepted on local port `port`.
    static func sockets(connectedTo host: String?, port: UInt16) -> Set<Int32> {
        let peers = host.map { addresses(of: $0, port: port) } ?? []
        if host != nil && peers.isEmpty { return [] }
        var found = Set<Int32>()
        for descriptor in openDescriptors() {
            var status = stat()
            guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { continue }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
            }
            guard named == 0, let peer = endpoint(of: storage) else { continue }
            if host != nil {
                if peers.contains(peer) { found.insert(descriptor) }
            } else {
                var local = sockaddr_storage()
                var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let localNamed = withUnsafeMutablePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &localLength) }
                }
                if localNamed == 0, let name = endpoint(of: local), name.hasSuffix(":\(port)") { found.insert(descriptor) }
            }
        }
        return found
    }

    /// The numeric address and port of a socket address, e.g. "127.0.0.1:1935".
    private static func endpoint(of storage: sockaddr_storage) -> String? {
        var copy = storage
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(copy.ss_family == sa_family_t(AF_INET6) ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard copy.ss_family == sa_family_t(AF_INET) || copy.ss_family == sa_family_t(AF_INET6) else { return nil }
        let status = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard status == 0 else { return nil }
        func text(_ buffer: [CChar]) -> String { String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return "\(text(host)):\(text(service))"
    }

    /// Every address `host`:`port` resolves to, as "address:port".
    private static func addresses(of host: String, port: UInt16) -> Set<String> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var result = Set<String>()
        var entry = list
        while let current = entry {
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(
                    from: UnsafeRawBufferPointer(
                        start: current.pointee.ai_addr,
                        count: min(Int(current.pointee.ai_addrlen), target.count)))
            }
            if let text = endpoint(of: storage) { result.insert(text) }
            entry = current.pointee.ai_next
        }
        return result
    }

    /// The socket's figures now, or nil if it is no longer a connected TCP socket.
    func measure() -> TransportMeasurement? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0,
            Int(length) >= Offset.size
        else { return nil }
        func read<T: FixedWidthInteger>(_ offset: Int, as _: T.Type) -> T {
            info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        var queued: Int32 = 0
        let queueKnown = ioctl(descriptor, Self.outputQueueRequest, &queued) == 0
        let notSent = Int(read(Offset.notSent, as: UInt32.self))
        let rtt = Double(read(Offset.rtt, as: UInt32.self)) / 1_000_000
        let minimumRTT = Double(read(Offset.minimumRTT, as: UInt32.self)) / 1_000_000
        let rate = read(Offset.deliveryRate, as: UInt64.self)
        let appLimited = (read(Offset.appLimitedFlags, as: UInt8.self) & 1) != 0
        return TransportMeasurement(
            bytesAcknowledged: Int(clamping: read(Offset.bytesAcknowledged, as: UInt64.self)),
            queuedBytes: queueKnown ? Int(max(queued, 0)) : notSent,
            roundTripTime: rtt > 0 ? rtt : nil,
            minimumRoundTripTime: minimumRTT > 0 ? minimumRTT : nil,
            // Bytes per second; a figure taken while the sender had too little to send
            // (app-limited) says nothing about the link's capacity.
            deliveryRate: rate > 0 && !appLimited ? Int(clamping: rate * 8) : nil,
            lostPackets: Int(read(Offset.totalRetransmits, as: UInt32.self)))
    }
}
#endif
#endif
