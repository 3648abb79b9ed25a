#if os(Linux)
import Foundation
import Glibc
import OnAirCore
import OnAirHTTP

/// OnAir's own RTSP server for live streams (issue 45): one `SocketEventLoop` thread serves every
/// connection, whatever their number, and each track is packetized once (`ServeElementarySink`
/// makes the RTP packets as it publishes). A client gets its own viewer queue in the hub (its own
/// keyframe-first start, skips to a keyframe and cut at the viewer timeout), its own SSRC,
/// sequence numbers and timestamp offset (`RTPClientRewrite`), put on each shared packet as it
/// is sent: over UDP one gathered datagram from the track's shared server socket, over TCP the
/// packet framed into the connection's bounded output (a copy of the packet, nothing more).
///
/// A TCP client that stops reading fills its output, after which its queue in the hub is no
/// longer read: the hub skips it to a keyframe, and past the viewer timeout it is cut and the
/// connection closed. No one else waits for it.
package final class RTSPLiveServer: Sendable {
    /// What the server is told; every limit has a safe default.
    package struct Settings: Sendable {
        /// The numeric address to listen on (loopback by default).
        package var host = "127.0.0.1"
        /// The TCP port (0: one the kernel picks, read back from `port`).
        package var port = 0
        /// The streams by served path ("/live", "/sub").
        package var paths: [String: ServeElementarySink] = [:]
        /// Seconds without a request, RTCP or interleaved data after which a session (or a
        /// connection without one) is closed.
        package var sessionTimeout = 60.0
        /// Seconds a request may take to arrive whole.
        package var requestTimeout = 10.0
        /// The most connections at once; more are closed as they come.
        package var connectionLimit = 256
        /// Bytes waiting to be written on one TCP connection past which its viewer queue is not
        /// read until they drain.
        package var outputLimit = 256 * 1024
        /// The credential check (nil: none asked).
        package var keys: RTSPKeys?
        /// Whether RTP over UDP is offered (never on RTSPS, whose media stay inside TLS).
        package var allowsUDP = true
        /// The certificate RTSPS presents (nil: plain RTSP); replace it in the slot to renew it.
        package var tls: HTTPTLSSlot?
        /// Seconds between RTCP sender reports of a playing session.
        package var senderReportInterval = 2.0
        /// The wall clock RTCP sender reports pair with the media (injected by tests).
        package var wallClock: @Sendable () -> Date = { Date() }
        /// The RTCP CNAME of the server's streams.
        package var cname = "onair"
        /// Whether every viewer keeps the track's own RTP timestamps (no random offset): set with
        /// `--timeline-start`, so that the wrap lands where it puts it.
        package var sharedTimestamps = false

        /// Settings with the defaults.
        package init() {}
    }

    /// What the server asks its owner.
    package struct Hooks: Sendable {
        /// Before DESCRIBE is answered: 200, or 403 (a blocked address) or 503 (no free slot).
        package var admit: @Sendable (_ peer: String) -> Int
        /// At a session's first PLAY: the viewer of `path` opened for `peer` with the credential
        /// key the request was admitted with, or a refusal (403, 503).
        package var play: @Sendable (_ path: String, _ peer: String, _ key: Int, _ transport: String) throws(RTSPRefusal) -> ServeViewer
        /// One line for the log (never a secret).
        package var log: @Sendable (String) -> Void

        /// Hooks calling these closures.
        package init(
            admit: @escaping @Sendable (String) -> Int,
            play: @escaping @Sendable (String, String, Int, String) throws(RTSPRefusal) -> ServeViewer,
            log: @escaping @Sendable (String) -> Void
        ) {
            self.admit = admit
            self.play = play
            self.log = log
        }
    }

    /// The settings the server runs with.
    package let settings: Settings
    let hooks: Hooks
    let loop: SocketEventLoop
    /// Whether the loop is the server's own (stopped with it) rather than one it shares.
    private let ownsLoop: Bool
    private let listener: Int32
    /// The shared UDP sockets (RTP, RTCP and the RTP port) of each media type.
    let udp: [MediaType: (rtp: Int32, rtcp: Int32, port: Int)]
    /// The address and port listened on.
    package let address: SocketAddress

    struct State {
        var connections: [Int32: RTSPLiveConnection] = [:]
        var stopped = false
        var keys: RTSPKeys?
    }

    let state: Locked<State>

    /// The TCP port listened on.
    package var port: Int { address.port }

    /// Listens, and serves until `stop`.
    package init(settings: Settings, hooks: Hooks, loop: SocketEventLoop? = nil) throws {
        guard let listenAddress = SocketAddress(host: settings.host, port: settings.port) else {
            throw SettingsError(field: "rtspHost", value: settings.host, allowed: "a numeric IPv4 or IPv6 address")
        }
        self.settings = settings
        self.hooks = hooks
        self.loop = try loop ?? SocketEventLoop(name: "rtsp")
        ownsLoop = loop == nil
        state = Locked(State(keys: settings.keys))
        listener = try NetSocket.listenTCP(listenAddress)
        var sockets: [MediaType: (rtp: Int32, rtcp: Int32, port: Int)] = [:]
        do {
            if settings.allowsUDP && settings.tls == nil {
                for type in [MediaType.video, .audio] {
                    sockets[type] = try NetSocket.bindUDPPair(listenAddress)
                }
            }
        } catch {
            for pair in sockets.values {
                close(pair.rtp)
                close(pair.rtcp)
            }
            close(listener)
            throw error
        }
        udp = sockets
        address = SocketAddress(of: listener, peer: false) ?? listenAddress
        try self.loop.register(listener, for: .readable) { [weak self] _ in self?.acceptWaiting() }
        for pair in sockets.values {
            for fd in [pair.rtp, pair.rtcp] {
                try self.loop.register(fd, for: .readable) { [weak self] _ in self?.drainDatagrams(fd) }
            }
        }
        self.loop.schedule(after: 0.25) { [weak self] in self?.housekeeping() }
    }

    /// The credential check from now on (a reload's tokens).
    package func setKeys(_ keys: RTSPKeys?) {
        state.withLock { $0.keys = keys }
    }

    var keys: RTSPKeys? { state.withLock { $0.keys } }

    /// The connections open now.
    package var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Closes every connection (their viewers end) and stops listening; stops the loop too when it
    /// is the server's own. Not from the loop's thread.
    package func stop() {
        let done = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            let open = state.withLock { state in
                state.stopped = true
                return Array(state.connections.values)
            }
            for connection in open { connection.close(reason: nil) }
            loop.unregister(listener)
            close(listener)
            for pair in udp.values {
                for fd in [pair.rtp, pair.rtcp] {
                    loop.unregister(fd)
                    close(fd)
                }
            }
            done.signal()
        }
        done.wait()
        if ownsLoop { loop.stop() }
    }

    private func acceptWaiting() {
        while let (fd, peer) = NetSocket.accept(listener) {
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped, state.connections.count < settings.connectionLimit else { return false }
                return true
            }
            guard accepted else {
                close(fd)
                hooks.log("rtsp: \(peer.host) refused: \(settings.connectionLimit) connections open")
                continue
            }
            // A small receive buffer: a flood is read in small steps and cut at its limit. A fixed
            // send buffer (the kernel doubles it; autotuning would let it grow to megabytes): what
            // a client that stops reading holds is this, the output and its hub queue, so it is
            // found behind within seconds, and its memory is bounded.
            NetSocket.set(fd, level: SOL_SOCKET, option: SO_RCVBUF, to: 64 * 1024)
            NetSocket.set(fd, level: SOL_SOCKET, option: SO_SNDBUF, to: 128 * 1024)
            NetSocket.set(fd, level: Int32(IPPROTO_TCP), option: TCP_NODELAY, to: 1)
            let stream: any ByteStream
            do {
                stream = try settings.tls.map { try TLSServerStream(fd: fd, slot: $0) } ?? PlainStream(fd: fd)
            } catch {
                close(fd)
                hooks.log("rtsp: \(peer.host) refused: \(error)")
                continue
            }
            let connection = RTSPLiveConnection(server: self, stream: stream, peer: peer)
            state.withLock { $0.connections[fd] = connection }
            do {
                try loop.register(fd, for: .readable) { [weak connection] events in connection?.handle(events) }
            } catch {
                state.withLock { _ = $0.connections.removeValue(forKey: fd) }
                stream.close()
                close(fd)
                continue
            }
            connection.shakeHands()
        }
    }

    /// Forgets a closed connection.
    func remove(_ fd: Int32) {
        state.withLock { _ = $0.connections.removeValue(forKey: fd) }
    }

    /// Reads and drops what clients send to the shared UDP sockets (RTCP receiver reports, NAT
    /// probes), counting it as a sign of life of the sessions of its address.
    private func drainDatagrams(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 2048)
        var seen: Set<String> = []
        for _ in 0..<64 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &length) }
            }
            guard count >= 0 else { break }
            let peer: SocketAddress? = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { SocketAddress($0, length: length) }
            }
            if let peer { seen.insert(peer.host) }
        }
        guard !seen.isEmpty else { return }
        let now = loop.now()
        for connection in state.withLock({ Array($0.connections.values) }) where seen.contains(connection.peer.host) {
            connection.heardUDP(at: now)
        }
    }

    /// Four times a second: request and session timeouts, and the viewers of blocked connections
    /// judged for a cut.
    private func housekeeping() {
        guard !state.withLock({ $0.stopped }) else { return }
        let now = loop.now()
        for connection in state.withLock({ Array($0.connections.values) }) {
            connection.check(now: now)
        }
        loop.schedule(after: 0.25) { [weak self] in self?.housekeeping() }
    }
}

/// A refusal an owner gives the server instead of a viewer: the RTSP status to answer with.
package struct RTSPRefusal: Error, Sendable, Equatable {
    /// 403 (a withdrawn credential) or 503 (no free slot).
    package var status: Int

    /// A refusal with `status`.
    package init(status: Int) {
        self.status = status
    }
}
#endif
