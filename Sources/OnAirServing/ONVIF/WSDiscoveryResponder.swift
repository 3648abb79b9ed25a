#if os(Linux)
import Foundation
import Glibc
import OnAirCore

/// WS-Discovery for the ONVIF device (`--onvif-discovery`): a UDP socket on port 3702 joined to
/// 239.255.255.250 on every multicast interface up at the start (loopback excepted), with
/// `SO_REUSEADDR` so several instances share the port (each with its own endpoint). Each
/// datagram is read by `WSDiscoveryRequest` (bounded; anything not a well-formed Probe or Resolve
/// is dropped); one that asks for this device is answered, unicast to its source, when the source
/// is on the subnet of the interface it came in on (`IP_PKTINFO`) and `WSDiscoveryRateLimit`
/// allows, after a random wait of up to WS-Discovery's APP_MAX_DELAY (`WSDiscoveryDelays`); the
/// XAddrs carry that interface's address. Hello goes out on each interface at the start, Bye at
/// `stop()`. One thread of its own, blocked in `poll` until a datagram comes, a held answer is
/// due or half a second passes (to see a stop).
package final class WSDiscoveryResponder: Sendable {
    /// WS-Discovery's multicast group and port.
    package static let group = "239.255.255.250", port: UInt16 = 3702

    private struct State {
        var limit = WSDiscoveryRateLimit()
        var delays = WSDiscoveryDelays<(reply: String, destination: sockaddr_in)>()
        var number = 0
        var stopped = false
    }

    private let socket: Int32
    private let device: WSDiscoveryDevice
    private let interfaces: [(name: String, index: Int32, address: in_addr)]
    private let xaddrs: @Sendable (String) -> [String]
    private let log: @Sendable (String) -> Void
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)
    private let uptime: @Sendable () -> Double

    /// Starts answering as `device`; `xaddrs` gives the service addresses for an interface's IPv4
    /// address; `log` hears what could not be done; `uptime` is the monotonic clock of the rate
    /// limit and the answers' waits. Throws when the socket cannot be set up.
    package init(
        device: WSDiscoveryDevice, port: UInt16 = WSDiscoveryResponder.port, xaddrs: @escaping @Sendable (String) -> [String],
        log: @escaping @Sendable (String) -> Void, uptime: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) throws {
        self.uptime = uptime
        self.device = device
        self.xaddrs = xaddrs
        self.log = log
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard socket >= 0 else { throw ServeAuthError("WS-Discovery: no UDP socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, size)
        setsockopt(socket, Int32(IPPROTO_IP), IP_PKTINFO, &one, size)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw ServeAuthError("WS-Discovery: cannot bind UDP port \(port): \(reason)")
        }
        var joined: [(String, Int32, in_addr)] = []
        for interface in Self.multicastInterfaces() {
            var membership = ip_mreqn()
            membership.imr_multiaddr.s_addr = inet_addr(Self.group)
            membership.imr_ifindex = interface.index
            if setsockopt(socket, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, socklen_t(MemoryLayout<ip_mreqn>.size)) == 0 {
                joined.append(interface)
            }
        }
        interfaces = joined.map { (name: $0.0, index: $0.1, address: $0.2) }
        self.socket = socket
        if interfaces.isEmpty { log("WS-Discovery: no multicast interface to join; Probes are not heard") }
        for interface in interfaces {
            send(
                device.announcement(hello: xaddrs(Self.text(interface.address)), messageID: Self.messageID(), number: nextNumber()),
                on: interface)
        }
        let thread = Thread { [self] in
            receive()
            finished.signal()
        }
        thread.name = "onair.onvif.discovery"
        thread.start()
    }

    /// The interfaces joined, by name.
    package var joinedInterfaces: [String] { interfaces.map(\.name) }

    /// Says Bye on each interface, stops answering and closes the socket.
    package func stop() {
        let already = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !already else { return }
        finished.wait()
        for interface in interfaces {
            send(device.announcement(hello: nil, messageID: Self.messageID(), number: nextNumber()), on: interface)
        }
        close(socket)
    }

    private func nextNumber() -> Int {
        state.withLock { state in
            state.number += 1; return state.number
        }
    }

    private static func messageID() -> String { "urn:uuid:" + UUID().uuidString.lowercased() }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: WSDiscoveryRequest.maximumBytes + 1)
        var control = [UInt8](repeating: 0, count: 128)
        while !state.withLock({ $0.stopped }) {
            let now = uptime()
            let (due, next) = state.withLock { ($0.delays.due(now: now), $0.delays.next) }
            for answer in due { send(answer.reply, to: answer.destination) }
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let wait = next.map { min(max($0 - now, 0), 0.5) } ?? 0.5
            guard poll(&ready, 1, Int32((wait * 1000).rounded(.up))) > 0 else { continue }
            var source = sockaddr_in()
            var count = 0
            var controlLength = 0
            buffer.withUnsafeMutableBytes { bytes in
                control.withUnsafeMutableBytes { controlBytes in
                    withUnsafeMutablePointer(to: &source) { sourcePointer in
                        var vector = iovec(iov_base: bytes.baseAddress, iov_len: bytes.count)
                        withUnsafeMutablePointer(to: &vector) { vectorPointer in
                            var message = msghdr()
                            message.msg_name = UnsafeMutableRawPointer(sourcePointer)
                            message.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
                            message.msg_iov = vectorPointer
                            message.msg_iovlen = 1
                            message.msg_control = controlBytes.baseAddress
                            message.msg_controllen = controlBytes.count
                            count = recvmsg(socket, &message, Int32(MSG_DONTWAIT))
                            controlLength = Int(message.msg_controllen)
                        }
                    }
                }
            }
            guard count > 0, count <= WSDiscoveryRequest.maximumBytes else { continue }
            guard let index = Self.arrivalInterface(control, length: controlLength) else { continue }
            answer(Array(buffer.prefix(count)), from: source, interface: index)
        }
    }

    /// Answers one datagram that came in on interface `index` from `source`, when it should be.
    private func answer(_ datagram: [UInt8], from source: sockaddr_in, interface index: Int32) {
        guard let request = WSDiscoveryRequest(datagram: datagram), device.matches(request) else { return }
        guard let local = Self.localAddress(onInterface: index, sameSubnetAs: source.sin_addr) else { return }
        let sourceText = Self.text(source.sin_addr)
        let now = uptime()
        guard state.withLock({ $0.limit.admit(sourceText, now: now) }) else { return }
        let reply = device.answer(to: request, xaddrs: xaddrs(Self.text(local)), messageID: Self.messageID(), number: nextNumber())
        let held = state.withLock { state in
            var random = SystemRandomNumberGenerator()
            return state.delays.hold((reply, source), now: now, using: &random)
        }
        if !held { log("WS-Discovery: too many answers waiting; one to \(sourceText) dropped") }
    }

    /// Sends `reply` to `source` (unicast).
    private func send(_ reply: String, to source: sockaddr_in) {
        var destination = source
        let sent = Array(reply.utf8).withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socket, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if sent < 0 { log("WS-Discovery: cannot answer \(Self.text(source.sin_addr)): \(String(cString: strerror(errno)))") }
    }

    /// Sends `text` to the group on `interface`.
    private func send(_ text: String, on interface: (name: String, index: Int32, address: in_addr)) {
        var choice = ip_mreqn()
        choice.imr_ifindex = interface.index
        setsockopt(socket, Int32(IPPROTO_IP), IP_MULTICAST_IF, &choice, socklen_t(MemoryLayout<ip_mreqn>.size))
        var destination = sockaddr_in()
        destination.sin_family = sa_family_t(AF_INET)
        destination.sin_port = Self.port.bigEndian
        destination.sin_addr.s_addr = inet_addr(Self.group)
        let sent = Array(text.utf8).withUnsafeBytes { bytes in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(socket, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if sent < 0 { log("WS-Discovery: cannot announce on \(interface.name): \(String(cString: strerror(errno)))") }
    }

    /// The interface index of `IP_PKTINFO` in a received message's control data, or nil.
    static func arrivalInterface(_ control: [UInt8], length: Int) -> Int32? {
        let header = MemoryLayout<cmsghdr>.size
        let align = { (value: Int) in (value + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1) }
        var offset = 0
        let end = min(length, control.count)
        while offset + header <= end {
            let (messageLength, level, type) = control.withUnsafeBytes { bytes in
                let cmsg = bytes.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
                return (Int(cmsg.cmsg_len), cmsg.cmsg_level, cmsg.cmsg_type)
            }
            guard messageLength >= header, offset + messageLength <= end else { return nil }
            if level == Int32(IPPROTO_IP), type == IP_PKTINFO, messageLength >= align(header) + MemoryLayout<in_pktinfo>.size {
                return control.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + align(header), as: in_pktinfo.self).ipi_ifindex }
            }
            offset += align(messageLength)
        }
        return nil
    }

    /// The interfaces that are up, take multicast and are not loopback, with their first IPv4 address.
    static func multicastInterfaces() -> [(name: String, index: Int32, address: in_addr)] {
        addresses().filter { $0.multicast }.reduce(into: []) { found, entry in
            if !found.contains(where: { $0.index == entry.index }) { found.append((entry.name, entry.index, entry.address)) }
        }
    }

    /// The IPv4 address of interface `index` on whose subnet `source` is, or nil (not a local source).
    static func localAddress(onInterface index: Int32, sameSubnetAs source: in_addr) -> in_addr? {
        addresses().first { $0.index == index && ($0.address.s_addr & $0.mask.s_addr) == (source.s_addr & $0.mask.s_addr) }?.address
    }

    /// Every IPv4 address of an interface that is up and not loopback.
    private static func addresses() -> [(name: String, index: Int32, address: in_addr, mask: in_addr, multicast: Bool)] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [(String, Int32, in_addr, in_addr, Bool)] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                let mask = entry.pointee.ifa_netmask, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            let name = String(cString: entry.pointee.ifa_name)
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr
            let netmask = UnsafeRawPointer(mask).loadUnaligned(as: sockaddr_in.self).sin_addr
            found.append((name, Int32(if_nametoindex(name)), ipv4, netmask, flags & Int32(IFF_MULTICAST) != 0))
        }
        return found.map { (name: $0.0, index: $0.1, address: $0.2, mask: $0.3, multicast: $0.4) }
    }

    /// `address` as dotted quads.
    static func text(_ address: in_addr) -> String {
        var copy = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
