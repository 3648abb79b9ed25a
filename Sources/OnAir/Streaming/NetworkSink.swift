import Foundation
import OnAirCore
import OnAirSRT
#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Streams the session's packets to one network destination and keeps the stream up.
///
/// A connector thread makes the connection (for a listener URL: waits for the peer) while
/// `write` only ever sends or drops, so the session never waits for the network. When a send
/// fails or stalls past `ReconnectPolicy.sendTimeout`, the connection is dropped and the
/// connector tries again after a bounded exponential backoff; packets are dropped while offline.
/// Each new connection starts with a new container header on a keyframe the sink asks the
/// encoder for, with the capture clock's timestamps carrying on. Only a failure of the very
/// first connection of a caller URL is fatal (a wrong address or SRT passphrase).
public final class NetworkSink: ReconnectingSink, @unchecked Sendable {
    /// What happened to the connection, for progress messages.
    public enum Event: Sendable {
        /// A connection was made (`reconnect`: after one was lost).
        case connected(reconnect: Bool)
        /// The connection failed; the sink tries again after `retryIn` seconds.
        case lost(reason: String, retryIn: Double)
        /// A connect attempt failed; the next one follows after `retryIn` seconds.
        case attemptFailed(reason: String, retryIn: Double)
        /// Finishing the stream (the container trailer) failed; what was sent before stays sent.
        case finishFailed(reason: String)
    }

    /// The parsed destination.
    public let target: StreamTarget
    public var destination: String { target.displayName }
    private let streams: Set<MediaType>
    private let policy: ReconnectPolicy
    private let sendBufferBytes: Int?
    private let events: (@Sendable (Event) -> Void)?
    private let condition = NSCondition()
    // Under `condition`:
    private var descriptions: [MediaType: FormatDescription] = [:]
    private var ready: NetworkConnection?
    private var finishing = false
    private var attemptDeadline: NetworkDeadline?
    private var wantConnection = true
    private var everConnected = false
    private var fatal: (any Error)?
    private var counters = ConnectionStatistics()
    private var offlineSince: Double?
    private var keyFrameRequester: (@Sendable () -> Void)?
    /// Reads the current connection's transport figures (nil: offline, or a transport without feedback).
    private var probe: TransportProbe?
    /// The probe of the connection in `ready`, taking over with it.
    private var readyProbe: TransportProbe?
    /// The stream's planned rate that paces an SRT connection (nil: unpaced).
    private var pacingBitRate: Int?
    /// The latest bytes acknowledged, to see a slow but moving link as progress, not a stall.
    private var lastAcknowledged = -1
    private let connectorDone = DispatchSemaphore(value: 0)
    // Used on the connector thread only:
    /// An SRT listener stays bound between connections, so a receiver can come back.
    private var srtListener: SRTSocket?
    // Used on the writing thread only:
    private var current: NetworkConnection?
    private var awaitingKeyFrame = true
    private var skipUntil: MediaTime?
    /// Until the first connection of a caller URL is made: the packets since the latest keyframe,
    /// sent first when it comes quickly, so the stream starts with the session's first frame
    /// rather than after the connect time.
    private var held: [EncodedPacket] = []
    private var holding: Bool
    private var startTime: MediaTime?
    private var described: Set<MediaType> = []

    /// Creates a sink for `target` carrying `streams`; the connector starts at once and connects as
    /// soon as the first packets have described every stream. `events` is called on internal threads.
    /// `sendBufferBytes` fixes the TCP send buffer (see `StreamTarget.protocolOptions`).
    public init(target: StreamTarget, streams: Set<MediaType>, policy: ReconnectPolicy = ReconnectPolicy(),
                sendBufferBytes: Int? = nil, events: (@Sendable (Event) -> Void)? = nil) {
        self.target = target
        self.sendBufferBytes = sendBufferBytes
        self.streams = streams
        self.policy = policy
        self.events = events
        holding = !target.isListener
        let thread = Thread { [self] in
            runConnector()
            connectorDone.signal()
        }
        thread.name = "onair.connect.\(target.transport.rawValue)"
        thread.start()
    }

    /// A TCP send buffer of about an eighth of a second at `streamBitRate` (at least 16 KiB), so
    /// a slow link backs up in the queue adaptive bitrate and the backlog bound measure instead of
    /// in the kernel, which they cannot see into. (Linux doubles the size given; the buffer still
    /// carries the rate over round trips up to about 250 ms.)
    public static func sendBufferBytes(streamBitRate: Int) -> Int {
        max(16_384, streamBitRate / 8 / 8)
    }

    /// The most unsent bytes a TCP socket with a send buffer of `sendBufferBytes` holds
    /// (`TCP_NOTSENT_LOWAT`): a quarter of the buffer, at least 8 KiB. The buffer is sized for the
    /// highest rate; at a lower one it would hold seconds the viewer waits for, out of reach of a
    /// backlog cut, while a small unsent part keeps that backlog in OnAir's queue.
    public static func unsentBytesLimit(sendBufferBytes: Int) -> Int {
        max(8_192, sendBufferBytes / 4)
    }

    /// The most an SRT connection sends per second (`SRTO_MAXBW`, bytes) for a stream planned at
    /// `streamBitRate`: twice it, room for the container's and SRT's overhead, the encoder's peaks
    /// and resent packets. Paced like this, a keyframe's burst waits in SRT's buffer (where the
    /// statistics show it) instead of overflowing a bottleneck's queue, where every lost packet
    /// comes back too late for a receiver with a short latency and tears a frame.
    public static func srtMaximumBandwidth(streamBitRate: Int) -> Int64 {
        Int64(Double(max(streamBitRate, 1)) * 2 / 8)
    }

    /// Paces an SRT connection (see `srtMaximumBandwidth`), unless its URL sets `maxbw` itself;
    /// other transports are not paced. Applies to the current connection and the next ones.
    public func setPacingRate(bitsPerSecond: Int?) throws {
        guard paced else { return }
        condition.lock()
        pacingBitRate = bitsPerSecond
        let probe = self.probe ?? readyProbe
        condition.unlock()
        try probe?.setMaximumBandwidth(bytesPerSecond: bitsPerSecond.map { Self.srtMaximumBandwidth(streamBitRate: $0) } ?? -1)
    }

    /// Whether adaptive bitrate paces this output: SRT, unless the URL sets `maxbw` (the user's own pacing).
    private var paced: Bool {
        target.transport == .srt && !(URLComponents(string: target.url)?.queryItems?.contains { $0.name == "maxbw" } ?? false)
    }

    public func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void) {
        condition.lock()
        keyFrameRequester = request
        condition.unlock()
    }

    public var connectionStatistics: ConnectionStatistics {
        condition.lock()
        defer { condition.unlock() }
        var snapshot = counters
        if let offlineSince { snapshot.offlineSeconds += Self.now - offlineSince }
        return snapshot
    }

    // MARK: - Writing thread

    public func write(_ packet: EncodedPacket) throws {
        condition.lock()
        if let fatal {
            condition.unlock()
            throw fatal
        }
        if let description = packet.formatDescription, descriptions[packet.mediaType] == nil {
            descriptions[packet.mediaType] = description
            condition.broadcast()
        } else if let description = packet.formatDescription {
            descriptions[packet.mediaType] = description
        }
        if let fresh = ready {
            // A new connection takes over here; it waits for a keyframe before sending anything.
            ready = nil
            current = fresh
            probe = readyProbe
            readyProbe = nil
            lastAcknowledged = -1
            awaitingKeyFrame = true
            skipUntil = nil
            startTime = nil
            described = []
        }
        let connection = current
        let known = descriptions
        condition.unlock()

        guard streams.contains(packet.mediaType) else { return countDropped() }
        guard let connection else { return holding ? hold(packet) : countDropped() }
        if holding {
            holding = false
            let backlog = held
            held = []
            // Only a connection made within a second replays what came before it: older packets
            // would put the receiver behind for good.
            if let first = backlog.first, packet.dts.seconds - first.dts.seconds <= Self.replayLimit {
                for earlier in backlog { send(earlier, on: connection, known: known) }
            } else {
                for _ in backlog { countDropped() }
            }
            guard current != nil else { return countDropped() }  // the replay lost the connection
        }
        send(packet, on: connection, known: known)
    }

    /// Seconds of packets from before the first connection that are sent once it is made.
    static let replayLimit = 1.0

    /// Keeps `packet` for the first connection: the latest keyframe and what followed it (for a
    /// stream without video, the last `replayLimit` seconds).
    private func hold(_ packet: EncodedPacket) {
        let startsOver = streams.contains(.video) ? packet.mediaType == .video && packet.isKeyframe
            : held.first.map { packet.dts.seconds - $0.dts.seconds > Self.replayLimit } ?? false
        if startsOver {
            for _ in held { countDropped() }
            held = []
        }
        held.append(packet)
    }

    /// Sends one packet on the current connection; a connection that fails is dropped and the connector told.
    private func send(_ packet: EncodedPacket, on connection: NetworkConnection, known: [MediaType: FormatDescription]) {
        guard current === connection else { return countDropped() }
        if awaitingKeyFrame {
            let startsHere = streams.contains(.video) ? packet.mediaType == .video && packet.isKeyframe : true
            guard startsHere else { return countDropped() }
            awaitingKeyFrame = false
            startTime = packet.dts
        }
        if let skipUntil {
            // Cutting a backlog: resume on a keyframe captured after the cut (for audio alone, on
            // the first packet after it); everything before it is dropped.
            let resumes = packet.dts > skipUntil && (streams.contains(.video) ? packet.mediaType == .video && packet.isKeyframe : true)
            guard resumes else { return countDropped() }
            self.skipUntil = nil
        }
        // Nothing from before the start: muxers (FLV) refuse decode times earlier than the first.
        if let startTime, packet.dts < startTime { return countDropped() }
        var outgoing = packet
        if !described.contains(packet.mediaType) {
            // The first packet of each stream on a connection carries its configuration.
            outgoing.formatDescription = packet.formatDescription ?? known[packet.mediaType]
            described.insert(packet.mediaType)
        }
        connection.deadline.arm(seconds: policy.sendTimeout)
        do {
            try connection.send(outgoing)
            condition.lock()
            counters.bytesSent += outgoing.byteCount
            condition.unlock()
        } catch {
            // The send error is the reason reported; the dead connection is closed without a
            // trailer and reset, so the server lets go of it before the next one arrives.
            condition.lock()
            let closing = probe
            probe = nil
            condition.unlock()
            closing?.resetOnClose()
            connection.abandon()
            current = nil
            condition.lock()
            counters.isConnected = false
            offlineSince = Self.now
            wantConnection = true
            condition.broadcast()
            condition.unlock()
            events?(.lost(reason: describe(error), retryIn: policy.delay(afterFailures: 1)))
        }
    }

    public func skipToKeyFrame(after time: MediaTime) {
        guard skipUntil == nil, current != nil, !awaitingKeyFrame else { return }
        skipUntil = time
        condition.lock()
        counters.backlogSkips += 1
        let requestKeyFrame = keyFrameRequester
        condition.unlock()
        requestKeyFrame?()
    }

    private func countDropped() {
        condition.lock()
        counters.droppedPackets += 1
        condition.unlock()
    }

    public func finish() throws {
        condition.lock()
        finishing = true
        attemptDeadline?.cancel()
        condition.broadcast()
        condition.unlock()
        connectorDone.wait()
        condition.lock()
        let unused = ready
        ready = nil
        readyProbe = nil
        probe = nil
        let fatal = self.fatal
        counters.isConnected = false
        if let offlineSince {
            counters.offlineSeconds += Self.now - offlineSince
            self.offlineSince = nil
        }
        condition.unlock()
        // A connection made after the last packet has nothing to finish.
        unused?.abandon()
        srtListener?.close()
        if let connection = current {
            current = nil
            connection.deadline.arm(seconds: policy.sendTimeout)
            // A peer that is gone or stalled at the very end costs only the trailer: it is reported,
            // not thrown, so the session's files and exit status do not depend on it.
            do { try connection.close() } catch { events?(.finishFailed(reason: describe(error))) }
        }
        if let fatal { throw fatal }
    }

    // MARK: - Connector thread

    private func runConnector() {
        var failures = 0
        while true {
            condition.lock()
            while !finishing && (!wantConnection || !streams.allSatisfy({ descriptions[$0] != nil })) {
                condition.wait()
            }
            if finishing {
                condition.unlock()
                return
            }
            let known = descriptions
            let deadline = NetworkDeadline()
            attemptDeadline = deadline
            condition.unlock()

            deadline.arm(seconds: target.isListener ? .infinity : policy.connectTimeout)
            do {
                let (connection, newProbe) = try connect(known: known, deadline: deadline)
                condition.lock()
                attemptDeadline = nil
                if finishing {
                    condition.unlock()
                    connection.abandon()
                    return
                }
                readyProbe = newProbe
                let reconnect = everConnected
                if reconnect { counters.reconnects += 1 }
                if let offlineSince {
                    counters.offlineSeconds += Self.now - offlineSince
                    self.offlineSince = nil
                }
                everConnected = true
                counters.isConnected = true
                wantConnection = false
                ready = connection
                let requestKeyFrame = keyFrameRequester
                condition.unlock()
                failures = 0
                requestKeyFrame?()
                events?(.connected(reconnect: reconnect))
            } catch {
                condition.lock()
                attemptDeadline = nil
                let stopping = finishing
                if !everConnected && !target.isListener && !stopping {
                    fatal = classify(error)
                    condition.unlock()
                    return
                }
                condition.unlock()
                if stopping { return }
                failures += 1
                let delay = policy.delay(afterFailures: failures)
                events?(.attemptFailed(reason: describe(error), retryIn: delay))
                condition.lock()
                let until = Date().addingTimeInterval(delay)
                while !finishing && condition.wait(until: until) {}
                condition.unlock()
            }
        }
    }

    // MARK: - Transports

    /// Makes one connection: SRT through libsrt (OnAirSRT) under FFmpeg's MPEG-TS muxer, every
    /// other transport through FFmpeg's protocols; returns it with the probe of its transport.
    private func connect(known: [MediaType: FormatDescription], deadline: NetworkDeadline) throws
        -> (NetworkConnection, TransportProbe?) {
        if target.transport == .srt { return try connectSRT(known: known, deadline: deadline) }
        let endpoint = tcpEndpoint
        let before = endpoint.map { TCPSocketProbe.sockets(connectedTo: $0.host, port: $0.port) } ?? []
        let connection = try NetworkConnection(
            url: target.url, displayName: target.displayName, format: target.muxer, descriptions: known,
            muxerOptions: target.muxerOptions, protocolOptions: target.protocolOptions(sendTimeout: policy.sendTimeout, sendBufferBytes: sendBufferBytes),
            deadline: deadline)
        // FFmpeg keeps its socket to itself: the new one is the socket to the peer that was not there before.
        guard let endpoint else { return (connection, nil) }
        let fresh = TCPSocketProbe.sockets(connectedTo: endpoint.host, port: endpoint.port).subtracting(before)
        guard fresh.count == 1, let descriptor = fresh.first else { return (connection, nil) }
        let socket = TCPSocketProbe(descriptor: descriptor)
        if let sendBufferBytes { socket.limitUnsentBytes(Self.unsentBytesLimit(sendBufferBytes: sendBufferBytes)) }
        return (connection, TransportProbe(tcp: socket))
    }

    /// The peer of a TCP-based transport (host nil: a `listen=1` URL, matched by local port).
    private var tcpEndpoint: (host: String?, port: UInt16)? {
        guard target.transport.isTCP, let components = URLComponents(string: target.url), let host = components.host else { return nil }
        let port = components.port ?? (target.transport == .rtmps ? 443 : target.transport == .rtmp ? 1935 : 0)
        guard (1...65_535).contains(port) else { return nil }
        return (target.isListener ? nil : host, UInt16(port))
    }

    /// Connects (or, as a listener, accepts) an SRT socket and starts an MPEG-TS muxer writing into it.
    private func connectSRT(known: [MediaType: FormatDescription], deadline: NetworkDeadline) throws
        -> (NetworkConnection, TransportProbe?) {
        let endpoint = try SRTEndpoint(url: target.url, sendTimeout: policy.sendTimeout)
        let socket: SRTSocket
        if endpoint.isListener {
            if srtListener == nil {
                srtListener = try SRTSocket.listen(host: endpoint.host, port: endpoint.port, backlog: 1, options: endpoint.options)
            }
            var accepted: SRTSocket?
            while accepted == nil {
                if deadline.hasExpired { throw SRTError(code: -1, operation: "srt_accept(\(target.displayName))", message: "stopped waiting") }
                accepted = try srtListener?.accept(timeout: .milliseconds(250))
            }
            socket = accepted!
        } else {
            socket = try SRTSocket.connect(host: endpoint.host, port: endpoint.port, options: endpoint.options,
                                           timeout: .milliseconds(Int64(policy.connectTimeout * 1000)))
        }
        let probe = TransportProbe(srt: socket)
        condition.lock()
        let pacing = pacingBitRate
        condition.unlock()
        if let pacing {  // set only when `paced`
            do {
                try socket.setMaximumBandwidth(bytesPerSecond: Self.srtMaximumBandwidth(streamBitRate: pacing))
            } catch {
                socket.close()
                throw error
            }
        }
        let output = PacketOutput(packetSize: endpoint.payloadSize, write: { bytes in
            probe.waitForSendRoom(maximumWait: 1)
            try socket.send(bytes)
            probe.handed(bytes.count)
        }, close: { socket.close() })
        do {
            let connection = try NetworkConnection(output: output, displayName: target.displayName, format: target.muxer,
                                                   descriptions: known, muxerOptions: target.muxerOptions)
            return (connection, probe)
        } catch {
            socket.close()
            throw error
        }
    }

    /// The transport's own figures for the current connection; a link still delivering counts as
    /// progress, so a slow send is not taken for a stalled one (congestion never reconnects).
    public var transportMeasurement: TransportMeasurement? {
        condition.lock()
        let probe = self.probe
        condition.unlock()
        guard let measurement = probe?.measure() else { return nil }
        condition.lock()
        let moved = lastAcknowledged >= 0 && measurement.bytesAcknowledged > lastAcknowledged
        lastAcknowledged = measurement.bytesAcknowledged
        let connection = current
        condition.unlock()
        if moved, let connection, self.probe === probe { connection.deadline.arm(seconds: policy.sendTimeout) }
        return measurement
    }

    /// An error's text, saying "stalled" where the deadline (not the peer) ended the call, and
    /// explaining a server that still holds the previous connection.
    private func describe(_ error: any Error) -> String {
        #if canImport(OnAirFFmpeg)
        if let error = error as? FFmpegError, error.code == CaptureInterrupt.exitCode {
            return "\(error.operation): no progress for \(policy.sendTimeout) s (stalled)"
        }
        #endif
        let text = "\(error)"
        if text.contains("Already publishing") {
            return text + " — the server still holds the previous connection under this stream key; it lets go once it notices that connection is gone (OnAir closed it before reconnecting), and the next attempt follows"
        }
        return text
    }

    /// The error of a failed first connection, worded for the user.
    private func classify(_ error: any Error) -> StreamError {
        if let error = error as? StreamError { return error }
        if let error = error as? SRTError, error.isRejected {
            return .refused(destination: target.displayName, reason: error.rejectReason ?? error.message)
        }
        let reason = "\(error)"
        if target.transport == .srt && target.hasPassphrase && !reason.contains("timed out") && !reason.contains("Immediate exit") {
            // The URL is in the message already: keep only FFmpeg's own words for the cause.
            #if canImport(OnAirFFmpeg)
            let cause = (error as? FFmpegError)?.message ?? reason
            #else
            let cause = reason
            #endif
            return .refused(destination: target.displayName, reason: cause)
        }
        if target.transport == .rtmps && target.tls.verify && reason.localizedCaseInsensitiveContains("certificate") {
            return .untrustedCertificate(destination: target.displayName, reason: "peer certificate failed verification")
        }
        return .connectFailed(destination: target.displayName, reason: describe(error))
    }

    private static var now: Double { ProcessInfo.processInfo.systemUptime }
}
