import Foundation
import OnAirCore

#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for peers that cannot report the port they bound (127.0.0.1 only).
///
/// A port is drawn at random below the kernel's ephemeral range and handed out once it binds
/// for both TCP and UDP. Ports the kernel hands out itself (bind to 0, then close) come from the
/// ephemeral range, where every outgoing connection of the other test lane (RTP and ICE sockets,
/// SRT callers) takes its local port too: such a port could be taken again before the peer bound
/// it, and a UDP listener with `SO_REUSEADDR` (libsrt's default) then shares it with a stranger.
public enum FreePort {
    /// Ports already handed out by this process (never handed out twice).
    private static let given = Locked(Set<Int>())

    /// A TCP (or, with `udp`, UDP) port on 127.0.0.1 that nothing is bound to.
    public static func loopback(udp: Bool = false) throws -> Int {
        let range = candidates()
        for _ in 0..<200 {
            let port = Int.random(in: range)
            guard bindable(port, udp: false) && bindable(port, udp: true) else { continue }
            if given.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw ToolError.failed("no free loopback port in \(range)")
    }

    /// Ports from 20000 up to the start of the kernel's ephemeral range (32768 unless set lower).
    static func candidates() -> ClosedRange<Int> {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let low = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        let top = max(low - 1, 10_000 + 1_000)
        return min(20_000, top - 1_000)...top
    }

    /// Whether a socket of the kind binds to 127.0.0.1:`port` now (without `SO_REUSEADDR`).
    static func bindable(_ port: Int, udp: Bool) -> Bool {
        let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
