#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports for streaming tests (127.0.0.1 only).
///
/// Our own servers bind port 0 and name the port they got in a status line
/// (`StreamTestProcess.announcedPort`). A peer that binds the port it is given and cannot say
/// which (nginx, ffmpeg's listeners, a Python one-liner) starts through `peer`, which gives it a
/// port and, when another socket has that port, starts it again on another: a port is never
/// bound, closed and handed on (another lane's process could take it in between).
enum StreamTestPorts {
    /// Ports already given to a peer by this process (never given twice).
    private static let given = Locked(Set<Int>())

    /// Starts a peer with `start(port)` on a loopback port drawn here, and returns once the peer
    /// itself holds the port: listens on it over TCP or, with `udp`, has the only UDP socket bound
    /// to it (its own descriptors, from /proc). While the peer says the port is in use ("Address
    /// already in use" on its stderr or in the file `log`), or another socket holds it, the peer
    /// is killed and started again on another port. Throws when the peer exits or does not bind
    /// within `timeout` seconds for another reason.
    static func peer(
        udp: Bool = false, timeout: Double = 20, log: String? = nil, _ start: (Int) throws -> StreamTestProcess
    ) throws -> (process: StreamTestProcess, port: Int) {
        var tried: [Int] = []
        for _ in 0..<8 {
            let port = try draw()
            tried.append(port)
            // Only what the log gains from here on is this start's (nginx appends to its log).
            let logged = { log.flatMap { FileManager.default.contents(atPath: $0) } ?? Data() }
            let earlier = logged().count
            let peer = try start(port)
            let said = { peer.stderr + String(decoding: logged().dropFirst(earlier), as: UTF8.self) }
            var taken = false
            let held = waitUntil(timeout: timeout) {
                if holds(peer.process.processIdentifier, port: port, udp: udp) { return true }
                taken = said().contains("Address already in use") || heldByAnother(port, than: peer, udp: udp)
                return taken || !peer.process.isRunning
            }
            if held && !taken { return (peer, port) }
            peer.kill()
            guard taken else { throw StreamTestError("the peer did not bind 127.0.0.1:\(port): \(said())") }
        }
        throw StreamTestError("every port tried was taken: \(tried)")
    }

    /// A port no peer of this process was given yet, drawn at random from 20000 up to the start of
    /// the kernel's ephemeral range, where the kernel puts port 0's binds and outgoing connections.
    static func draw() throws -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let low = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        let range = min(20_000, low - 2_000)...(low - 1)
        for _ in 0..<100 {
            let port = Int.random(in: range)
            if given.withLock({ $0.insert(port).inserted }) { return port }
        }
        throw StreamTestError("no port left to give in \(range)")
    }

    /// Whether process `pid` holds `port`: the TCP sockets listening on it, or every UDP socket
    /// bound to it, are among its open descriptors (and there is one).
    static func holds(_ pid: Int32, port: Int, udp: Bool) -> Bool {
        let bound = sockets(on: port, udp: udp)
        return !bound.isEmpty && bound.isSubset(of: sockets(of: pid))
    }

    /// Whether a socket that is not `peer`'s holds `port` beside or instead of it.
    private static func heldByAnother(_ port: Int, than peer: StreamTestProcess, udp: Bool) -> Bool {
        let bound = sockets(on: port, udp: udp)
        return !bound.isEmpty && !bound.isSubset(of: sockets(of: peer.process.processIdentifier))
    }

    /// The inodes of the sockets on local port `port`: listening TCP ones, or any UDP one
    /// (/proc/net/tcp, tcp6, udp, udp6; state 0A is LISTEN).
    static func sockets(on port: Int, udp: Bool) -> Set<String> {
        let needle = String(format: ":%04X", port)
        var inodes = Set<String>()
        for path in udp ? ["/proc/net/udp", "/proc/net/udp6"] : ["/proc/net/tcp", "/proc/net/tcp6"] {
            for line in ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(needle), udp || fields[3] == "0A", fields[9] != "0" else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        return inodes
    }

    /// The inodes of the sockets process `pid` has open (its /proc/PID/fd links "socket:[INODE]").
    static func sockets(of pid: Int32) -> Set<String> {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(
            names.compactMap { name in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name),
                    target.hasPrefix("socket:[")
                else { return nil }
                return String(target.dropFirst(8).dropLast())
            })
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
        !sockets(on: port, udp: true).isEmpty
    }
}

/// A streaming test's helper failed.
struct StreamTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif
