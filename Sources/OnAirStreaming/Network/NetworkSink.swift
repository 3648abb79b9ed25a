#if os(Linux)
import Foundation
import OnAirCore
import OnAirLive
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
/// Unchecked Sendable: the libavformat connection is used only on the writing thread; the other vars are under `condition`
package final class NetworkSink: ReconnectingSink, @unchecked Sendable {
    /// What happened to the connection, for progress messages.
    public typealias Event = ConnectionChange

    /// The parsed destination.
    public let target: StreamTarget
    /// The destination as the user named it, for progress lines and errors.
    public var destination: String { target.displayName }
    let streams: Set<MediaType>
    let policy: ReconnectPolicy
    private let sendBufferBytes: Int?
    let events: (@Sendable (Event) -> Void)?
    let condition = NSCondition()
    // Under `condition`:
    var descriptions: [MediaType: FormatDescription] = [:]
    var ready: NetworkConnection?
    var finishing = false
    var attemptDeadline: NetworkDeadline?
    var wantConnection = true
    var fatal: (any Error)?
    var ledger = ConnectionLedger()
    var keyFrameRequester: (@Sendable () -> Void)?
    /// Reads the current connection's transport figures (nil: offline, or a transport without feedback).
    private var probe: TransportProbe?
    /// The probe of the connection in `ready`, taking over with it.
    var readyProbe: TransportProbe?
    /// The stream's planned rate that paces an SRT connection (nil: unpaced).
    var pacingBitRate: Int?
    private let connectorDone = DispatchSemaphore(value: 0)
    /// Makes each connection (used on the connector thread, closed by `finish`).
    let connector: any NetworkConnector
    /// How errors are put in words.
    let wording: StreamErrorWording
    // Used on the writing thread only:
    private var current: NetworkConnection?
    /// What the current connection may send (keyframe start, backlog cuts).
    private var gate: ConnectionStartGate
    /// The packets kept for the first connection of a caller URL.
    private var hold: FirstConnectionHold

    /// Creates a sink for `target` carrying `streams`; the connector starts at once and connects as
    /// soon as the first packets have described every stream. `events` is called on internal threads.
    /// `sendBufferBytes` fixes the TCP send buffer (see `StreamTarget.protocolOptions`).
    public init(
        target: StreamTarget, streams: Set<MediaType>, policy: ReconnectPolicy = ReconnectPolicy(),
        sendBufferBytes: Int? = nil, events: (@Sendable (Event) -> Void)? = nil
    ) {
        self.target = target
        self.sendBufferBytes = sendBufferBytes
        self.streams = streams
        self.policy = policy
        self.events = events
        connector =
            target.transport == .srt
            ? SRTConnector(target: target, policy: policy)
            : FFmpegProtocolConnector(target: target, policy: policy, sendBufferBytes: sendBufferBytes)
        wording = StreamErrorWording(target: target, policy: policy)
        gate = ConnectionStartGate(streams: streams)
        hold = FirstConnectionHold(streams: streams, holding: !target.isListener)
        let thread = Thread { [self] in
            runConnector()
            connectorDone.signal()
        }
        thread.name = "onair.connect.\(target.transport.rawValue)"
        thread.start()
    }

    /// For a listener URL whose transport binds ahead of its peer (SRT): binds now and returns the
    /// destination as shown with the port it holds, the kernel's choice when the URL says port 0;
    /// nil otherwise (a caller, or FFmpeg's TCP listener, which binds only while connecting).
    package func listeningName() throws -> String? {
        guard target.isListener, let port = try connector.listen() else { return nil }
        var shown = URLComponents(string: target.displayName)
        shown?.port = port
        return shown?.string ?? target.displayName
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

    /// Sets what the sink calls to have the next encoded video frame be a keyframe (at each new connection).
    public func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void) {
        condition.lock()
        keyFrameRequester = request
        condition.unlock()
    }

    /// The connection counters (connected, reconnects, time offline); safe to read from any thread.
    package var connectionStatistics: ConnectionStatistics {
        condition.lock()
        defer { condition.unlock() }
        return ledger.snapshot(at: Self.now)
    }

    // MARK: - Writing thread

    /// Sends one encoded packet on the current connection (from its first keyframe on), or drops it while offline;
    /// throws once the connection has failed for good.
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
            gate.reset()
        }
        let connection = current
        let known = descriptions
        condition.unlock()

        guard streams.contains(packet.mediaType) else { return countDropped() }
        guard let connection else {
            guard hold.isHolding else { return countDropped() }
            return countDropped(hold.hold(packet))
        }
        if hold.isHolding {
            let (replay, dropped) = hold.release(at: packet)
            countDropped(dropped)
            for earlier in replay { send(earlier, on: connection, known: known) }
            guard current != nil else { return countDropped() }  // the replay lost the connection
        }
        send(packet, on: connection, known: known)
    }

    /// Sends one packet on the current connection; a connection that fails is dropped and the connector told.
    private func send(_ packet: EncodedPacket, on connection: NetworkConnection, known: [MediaType: FormatDescription]) {
        guard current === connection else { return countDropped() }
        guard let outgoing = gate.admit(packet, known: known) else { return countDropped() }
        connection.deadline.arm(seconds: policy.sendTimeout)
        do {
            try connection.send(outgoing)
            condition.lock()
            ledger.counters.bytesSent += outgoing.byteCount
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
            ledger.lost(at: Self.now)
            wantConnection = true
            condition.broadcast()
            condition.unlock()
            events?(.lost(reason: wording.describe(error), retryIn: .seconds(policy.delay(afterFailures: 1))))
        }
    }

    /// Drops video until a keyframe encoded after `time` (asking for one), to cut a backlog.
    public func skipToKeyFrame(after time: MediaTime) {
        guard current != nil, gate.cut(after: time) else { return }
        condition.lock()
        ledger.counters.backlogSkips += 1
        let requestKeyFrame = keyFrameRequester
        condition.unlock()
        requestKeyFrame?()
    }

    private func countDropped(_ count: Int = 1) {
        guard count > 0 else { return }
        condition.lock()
        ledger.counters.droppedPackets += count
        condition.unlock()
    }

    /// Stops reconnecting, completes and closes the current connection; throws a fatal connection error.
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
        ledger.finished(at: Self.now)
        condition.unlock()
        // A connection made after the last packet has nothing to finish.
        unused?.abandon()
        connector.close()
        if let connection = current {
            current = nil
            connection.deadline.arm(seconds: policy.sendTimeout)
            // A peer that is gone or stalled at the very end costs only the trailer: it is reported,
            // not thrown, so the session's files and exit status do not depend on it.
            do { try connection.close() } catch { events?(.finishFailed(reason: wording.describe(error))) }
        }
        if let fatal { throw fatal }
    }

    /// The transport's own figures for the current connection (nil: offline, or no feedback).
    package func measureTransport() -> TransportMeasurement? {
        condition.lock()
        let probe = self.probe
        condition.unlock()
        return probe?.measure()
    }

    /// The peer acknowledged more: a link still delivering counts as progress, so a slow send is
    /// not taken for a stalled one (congestion never reconnects).
    public func transportDelivered() {
        condition.lock()
        let connection = current
        condition.unlock()
        connection?.deadline.arm(seconds: policy.sendTimeout)
    }

    static var now: Double { ProcessInfo.processInfo.systemUptime }
}
#endif
