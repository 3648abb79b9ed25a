#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirFFmpeg) && canImport(OnAirHTTP)
import Foundation
import OnAirBitstream
import OnAirCore
import OnAirGStreamer
import OnAirLive

/// Publishes the session to a WHIP endpoint (RFC 9725) and keeps it published: the network
/// output behind `whip+http://host:port/path`.
///
/// A connector thread makes each `WHIPConnection` (POST the offer, apply the answer, wait for DTLS)
/// and watches it: a pipeline error, failed ICE or a server silent for `silence` seconds (no RTCP)
/// loses it; it is DELETEd (if the server still answers) and re-made after the `ReconnectPolicy`
/// backoff, and every new connection starts on a keyframe the sink asks the encoder for. Only a
/// failure of the very first connection is fatal (a refused token, a wrong address). `write`
/// only ever pushes or drops, so the session never waits for the network. The video is the
/// session's H.264; the audio is Opus, encoded once from the session's PCM (`audioTap(wrapping:)`).
/// PLI/FIR from the server become keyframe requests (at most one a second); the receiver reports
/// feed adaptive bitrate (`measureTransport()`, see `WHIPLinkGauge`).
/// Unchecked Sendable: the GStreamer connection is made on the connector thread, written on the writing thread; vars under `condition`
package final class WHIPSink: ReconnectingSink, @unchecked Sendable {
    /// The endpoint published to.
    public let endpoint: WHIPEndpoint
    /// The endpoint as named, for messages.
    public var destination: String { endpoint.name }
    private let streams: Set<MediaType>
    private let policy: ReconnectPolicy
    private let client: WHIPHTTPClient
    private let events: (@Sendable (NetworkSink.Event) -> Void)?
    private let localAddress: String?
    private let stunServer: String?
    /// Seconds without RTCP from the server before the connection counts as lost.
    private let silence: Double
    private var opus: OpusFeed?
    private let condition = NSCondition()
    // Under `condition`:
    private var current: WHIPConnection?
    private var finishing = false
    private var fatal: (any Error)?
    private var ledger = ConnectionLedger()
    private var keyFrameRequester: (@Sendable () -> Void)?
    private var coalescer = KeyFrameCoalescer(minimumInterval: 1)
    private var describedVideo = false
    private let connectorDone = DispatchSemaphore(value: 0)
    // Writing thread only:
    private var gate: ConnectionStartGate
    private var gateConnection: ObjectIdentifier?

    /// A sink for `endpoint` carrying `streams`, sending `token` as its Bearer token; the connector
    /// starts at once and connects once the first video packet has arrived. `events` is called on
    /// internal threads. Host candidates are gathered on `localAddress` (nil: loopback for a
    /// loopback endpoint, else every interface); `stunServer` ("stun://host:port") only if named;
    /// `tls` how a `whip+https` server's certificate is checked.
    public init(
        endpoint: WHIPEndpoint, token: String?, streams: Set<MediaType>, policy: ReconnectPolicy = ReconnectPolicy(),
        localAddress: String? = nil, stunServer: String? = nil, opusBitRate: Int = 96_000,
        tls: StreamTarget.TLSOptions = StreamTarget.TLSOptions(), events: (@Sendable (NetworkSink.Event) -> Void)? = nil
    ) throws {
        try GStreamerLibrary.require(elements: ["webrtcbin", "nicesrc", "dtlssrtpenc", "rtph264pay", "rtpopuspay", "h264parse", "appsrc"])
        self.endpoint = endpoint
        self.streams = streams
        self.policy = policy
        self.events = events
        self.stunServer = stunServer
        self.localAddress = localAddress ?? Self.loopbackAddress(for: endpoint.host)
        silence = max(3, policy.sendTimeout)
        var client = WHIPHTTPClient(endpoint: endpoint, token: token, timeout: policy.connectTimeout)
        client.verify = tls.verify
        client.caFile = tls.caFile
        self.client = client
        gate = ConnectionStartGate(streams: streams.contains(.video) ? [.video] : streams)
        if streams.contains(.audio) {
            opus = try OpusFeed(bitRate: opusBitRate, name: "onair.whip.opus") { [weak self] packet in self?.sendAudio(packet) }
        }
        let thread = Thread { [self] in
            runConnector()
            connectorDone.signal()
        }
        thread.name = "onair.connect.whip"
        thread.start()
    }

    /// `encoder` with the sink's tap: the PCM it encodes is also encoded to Opus for the WHIP audio.
    public func audioTap(wrapping encoder: any AudioEncoding) -> any AudioEncoding {
        opus?.audioTap(wrapping: encoder) ?? encoder
    }

    /// The address host candidates go on for an endpoint on `host`: its loopback, or nil (every interface).
    static func loopbackAddress(for host: String) -> String? {
        let bare = host.trimmingCharacters(in: ["[", "]"]).lowercased()
        if bare == "localhost" || bare.hasPrefix("127.") { return "127.0.0.1" }
        return bare == "::1" ? "::1" : nil
    }

    /// Sets what asks the encoder for a keyframe (new connections, PLI/FIR, backlog cuts).
    public func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void) {
        condition.lock()
        keyFrameRequester = request
        condition.unlock()
    }

    /// The connection counters; safe to read from any thread.
    public var connectionStatistics: ConnectionStatistics {
        condition.lock()
        defer { condition.unlock() }
        return ledger.snapshot(at: Self.now)
    }

    /// The receiver reports' figures now (see `WHIPLinkGauge`), nil while offline.
    public func measureTransport() -> TransportMeasurement? {
        condition.lock()
        let connection = current
        condition.unlock()
        return connection?.measure()
    }

    // MARK: - Writing thread

    /// Pushes a video packet to the current connection (from its first keyframe on), or drops it.
    public func write(_ packet: EncodedPacket) throws {
        try opus?.check()
        condition.lock()
        if let fatal {
            condition.unlock()
            throw fatal
        }
        if packet.mediaType == .video && !describedVideo {
            describedVideo = true
            condition.broadcast()
        }
        let connection = current
        condition.unlock()
        // The session's audio is AAC; the WHIP audio is the Opus feed's.
        guard packet.mediaType == .video, packet.codec == .h264, streams.contains(.video) else { return }
        guard let connection else { return countDropped() }
        if gateConnection != ObjectIdentifier(connection) {
            gateConnection = ObjectIdentifier(connection)
            gate.reset()
        }
        guard let outgoing = gate.admit(packet, known: [:]) else { return countDropped() }
        var payload = outgoing.payload
        if outgoing.form != .annexB(parameterSetsInBand: true) {
            payload = try outgoing.converted(to: .annexB(parameterSetsInBand: true))
        }
        connection.push(outgoing, payload: payload, hasVideo: true)
        condition.lock()
        ledger.counters.bytesSent += payload.count
        condition.unlock()
    }

    /// An Opus packet from the feed's thread.
    private func sendAudio(_ packet: EncodedPacket) {
        condition.lock()
        let connection = current
        if connection != nil { ledger.counters.bytesSent += packet.byteCount }
        condition.unlock()
        connection?.push(packet, payload: packet.payload, hasVideo: streams.contains(.video))
    }

    /// Drops video until a keyframe encoded after `time` (asking for one), to cut a backlog.
    public func skipToKeyFrame(after time: MediaTime) {
        guard gateConnection != nil, gate.cut(after: time) else { return }
        condition.lock()
        ledger.counters.backlogSkips += 1
        let request = keyFrameRequester
        condition.unlock()
        request?()
    }

    private func countDropped() {
        condition.lock()
        ledger.counters.droppedPackets += 1
        condition.unlock()
    }

    /// A PLI/FIR from the server (or a new connection): one forced keyframe a second at most.
    private func keyFrameWanted() {
        condition.lock()
        let request = coalescer.request(at: Self.now) ? keyFrameRequester : nil
        condition.unlock()
        request?()
    }

    /// Stops reconnecting, DELETEs the session and closes the peer; throws a fatal first-connection error.
    public func finish() throws {
        condition.lock()
        finishing = true
        condition.broadcast()
        condition.unlock()
        connectorDone.wait()
        opus?.stop()
        condition.lock()
        let connection = current
        current = nil
        ledger.finished(at: Self.now)
        let fatal = self.fatal
        condition.unlock()
        if let failure = connection?.close(delete: true) { events?(.finishFailed(reason: failure.description)) }
        if let fatal { throw fatal }
    }

    // MARK: - Connector thread

    private func runConnector() {
        var failures = 0
        while true {
            condition.lock()
            while !finishing && !(describedVideo || !streams.contains(.video)) { condition.wait() }
            if finishing {
                condition.unlock()
                return
            }
            condition.unlock()
            let connection: WHIPConnection
            do {
                connection = try WHIPConnection(
                    client: client, streams: streams, localAddress: localAddress, stunServer: stunServer,
                    keyFrameWanted: { [weak self] in self?.keyFrameWanted() })
            } catch {
                condition.lock()
                let stopping = finishing
                // A refusal is the server's answer, worth reporting even when the session ended meanwhile.
                var refused = false
                if case .refused = error { refused = true }
                if !ledger.everConnected && (!stopping || refused) {
                    fatal = error
                    condition.unlock()
                    return
                }
                condition.unlock()
                if stopping { return }
                failures += 1
                let delay = policy.delay(afterFailures: failures)
                events?(.attemptFailed(reason: error.description, retryIn: .seconds(delay)))
                guard waitWhileRunning(seconds: delay) else { return }
                continue
            }
            failures = 0
            condition.lock()
            if finishing {
                condition.unlock()
                connection.close(delete: true)
                return
            }
            let reconnect = ledger.connected(at: Self.now)
            current = connection
            let request = keyFrameRequester
            condition.unlock()
            request?()
            events?(.connected(reconnect: reconnect))
            // Watch it ten times a second until it is lost or the sink finishes.
            var reason: String?
            while reason == nil {
                guard waitWhileRunning(seconds: 0.1) else { return }
                reason = connection.lostReason(silence: silence)
            }
            condition.lock()
            current = nil
            ledger.lost(at: Self.now)
            condition.unlock()
            connection.close(delete: true)
            failures = 1
            let delay = policy.delay(afterFailures: failures)
            events?(.lost(reason: reason ?? "lost", retryIn: .seconds(delay)))
            guard waitWhileRunning(seconds: delay) else { return }
        }
    }

    /// Waits `seconds` unless the sink finishes first; false when it does.
    private func waitWhileRunning(seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let until = Date().addingTimeInterval(seconds)
        while !finishing && condition.wait(until: until) {}
        return !finishing
    }

    private static var now: Double { ProcessInfo.processInfo.systemUptime }
}
#endif
#endif
