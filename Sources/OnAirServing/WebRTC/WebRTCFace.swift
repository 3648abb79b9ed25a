#if os(Linux)
#if canImport(OnAirGStreamer) && canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirGStreamer
import OnAirHTTP
import OnAirLive
import OnAirStreaming

/// The WebRTC face of `onair serve`: WHEP viewers (`POST /whep`, see `WHEPEndpoint`), each a
/// `WebRTCViewer` with a webrtcbin pipeline of its own, fed from the one encode.
///
/// It is a sink of the live session for the H.264 video (AAC is left to the other faces) and
/// encodes Opus once for every viewer from the capture's samples, which `audioTap(wrapping:)` hands
/// it. Keyframe requests (viewers joining, PLI/FIR) are coalesced to one forced IDR per
/// `keyFrameInterval`. A housekeeping thread drops viewers that went silent (no RTCP within
/// `consentTimeout`), failed ICE or whose pipeline failed.
package final class WebRTCFace: PacketSink, Sendable {
    /// What the session's messages call this sink.
    public let destination = "WebRTC viewers (/whep)"
    /// The configuration in force.
    public let configuration: WebRTCConfiguration
    let streams: Set<MediaType>
    let profile: H264Profile
    let localAddress: String?
    private struct State {
        var viewers: [String: WebRTCViewer] = [:]
        /// Places taken by offers being answered.
        var reserved = 0
        var coalescer: KeyFrameCoalescer
        var forceKeyFrame: (@Sendable () -> Void)?
        var stopped = false
        /// Viewers admitted and dropped for silence since the start.
        var admitted = 0, dropped = 0
        /// Viewers cut because a reload withdrew the token (or user) that admitted them.
        var withdrawnCount = 0
        /// The sessions cut at a reload, whose own DELETE is answered without credentials.
        var cutSessions = WHEPCutSessions()
        var stillAdmits: (@Sendable (ServeCredential) -> Bool)?
    }

    private let state: Locked<State>
    /// The one Opus encode for every viewer (nil without audio).
    private let opus: OpusFeed?
    private let threads = DispatchGroup()
    private let stopSignal = DispatchSemaphore(value: 0)
    /// Viewers admitted since the start.
    var admitted: Int { state.withLock { $0.admitted } }
    /// Viewers dropped for silence since the start.
    var dropped: Int { state.withLock { $0.dropped } }
    /// Viewers cut because a reload withdrew the token (or user) that admitted them.
    package var cutCredentialWithdrawn: Int { state.withLock { $0.withdrawnCount } }

    /// A face for `streams` of a `profile` encode; host candidates on `localAddress` (nil: every interface).
    public init(
        configuration: WebRTCConfiguration, streams: Set<MediaType>, profile: H264Profile,
        localAddress: String?
    ) throws {
        try GStreamerLibrary.require(elements: ["webrtcbin", "nicesrc", "dtlssrtpenc", "rtph264pay", "rtpopuspay", "appsrc"])
        self.configuration = configuration
        self.streams = streams
        self.profile = profile
        self.localAddress = localAddress
        let state = Locked(State(coalescer: KeyFrameCoalescer(minimumInterval: configuration.keyFrameInterval.inSeconds)))
        self.state = state
        if streams.contains(.audio) {
            opus = try OpusFeed(bitRate: configuration.opusBitRate, name: "onair-webrtc-opus") { packet in
                for viewer in state.withLock({ Array($0.viewers.values) }) { viewer.enqueue(packet) }
            }
        } else {
            opus = nil
        }
        threads.startThread(named: "onair-webrtc-watch") { [self] in watch() }
    }

    /// Sets what forces the next encoded video frame to be a keyframe (the session's `forceKeyFrame`).
    public func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void) {
        state.withLock { $0.forceKeyFrame = request }
    }

    /// `encoder` with the face's tap: every PCM buffer also goes to the one Opus encode.
    public func audioTap(wrapping encoder: any AudioEncoding) -> any AudioEncoding {
        opus?.audioTap(wrapping: encoder) ?? encoder
    }

    // MARK: PacketSink

    /// Hands an H.264 packet to every viewer's queue (never blocks); other packets are left out.
    /// Throws when the Opus encode stopped (the face then fails with the reason, not on without sound).
    public func write(_ packet: EncodedPacket) throws {
        try opus?.check()
        guard packet.mediaType == .video, packet.codec == .h264 else { return }
        if packet.isKeyframe {
            let now = Self.seconds()
            state.withLock { $0.coalescer.keyFrameSent(at: now) }
        }
        for viewer in currentViewers() { viewer.enqueue(packet) }
    }

    /// Ends every viewer (the session is over).
    public func finish() throws {
        stop()
    }

    // MARK: Viewers

    /// How many viewers are connected or connecting, offers being answered included.
    public var viewerCount: Int { state.withLock { $0.viewers.count + $0.reserved } }

    /// Takes a place for an offer about to be answered when fewer than `maximum` watch in all
    /// (`others` on other transports); false when full. `addViewer` gives the place back.
    func reserve(maximum: Int, others: Int) -> Bool {
        state.withLock { state in
            guard !state.stopped, state.viewers.count + state.reserved + others < maximum else { return false }
            state.reserved += 1
            return true
        }
    }

    func currentViewers() -> [WebRTCViewer] {
        state.withLock { Array($0.viewers.values) }
    }

    /// Answers `offer` for a new viewer at `peer`: its id and the SDP answer.
    func addViewer(
        offer: String, peer peerAddress: String, choice: WebRTCCodecChoice, credential: ServeCredential = .anyone
    ) throws -> (id: String, answer: String) {
        var placeHeld = true
        defer {
            if placeHeld { state.withLock { $0.reserved -= 1 } }
        }
        var options = WebRTCPeer.Options(launch: launchDescription(choice), localAddress: localAddress, ports: configuration.ports)
        options.stunServer = configuration.stunServer
        options.turnServer = configuration.turnServer
        let peer = try WebRTCPeer(options: options, remoteOffer: offer) { [weak self] in self?.keyFrameWanted(feedback: true) }
        let id = Self.newIdentifier()
        let viewer = WebRTCViewer(
            id: id, peer: peer, peerAddress: peerAddress, credential: credential, queueBytes: configuration.viewerQueueBytes
        ) { [weak self] in
            self?.keyFrameWanted(feedback: false)
        }
        let (refused, withdrawn) = state.withLock { state in
            // Under the lock, as `cutViewers` looks: a reload that withdrew the credential meanwhile refuses it here.
            let withdrawn = !(state.stillAdmits?(credential) ?? true)
            let refused = state.stopped || withdrawn
            if !refused {
                state.viewers[id] = viewer
                state.admitted += 1
            }
            state.reserved -= 1
            return (refused, withdrawn)
        }
        placeHeld = false
        if refused {
            viewer.close()
            throw GStreamerError.webRTC(withdrawn ? "the credentials were withdrawn" : "the server is stopping")
        }
        return (id, advertise(peer.localDescription))
    }

    /// Whether `id` is a session being served.
    func hasViewer(_ id: String) -> Bool {
        state.withLock { $0.viewers[id] != nil }
    }

    /// Ends the viewer `id`; false when there is none.
    func removeViewer(_ id: String) -> Bool {
        let viewer = state.withLock { $0.viewers.removeValue(forKey: id) }
        viewer?.close()
        return viewer != nil
    }

    /// Whether `id` is a session a reload cut (forgotten once asked): its client's DELETE needs no
    /// credentials, which that reload withdrew.
    func wasCut(_ id: String) -> Bool {
        state.withLock { $0.cutSessions.take(id) }
    }

    /// Sets the judge of credentials `addViewer` asks at admission (the access policy's `stillAdmits`).
    func setCredentialCheck(_ stillAdmits: @escaping @Sendable (ServeCredential) -> Bool) {
        state.withLock { $0.stillAdmits = stillAdmits }
    }

    /// Ends every viewer whose credential `stillAdmits` no longer accepts (a reload withdrew its
    /// token or user); returns how many.
    func cutViewers(stillAdmits: (ServeCredential) -> Bool) -> Int {
        let withdrawn = state.withLock { state in
            let withdrawn = state.viewers.values.filter { !stillAdmits($0.credential) }
            for viewer in withdrawn {
                state.viewers[viewer.id] = nil
                state.cutSessions.insert(viewer.id)
            }
            state.withdrawnCount += withdrawn.count
            return withdrawn
        }
        for viewer in withdrawn { viewer.close() }
        return withdrawn.count
    }

    /// The viewers' figures for /stats.json.
    public func statistics() -> [WebRTCViewerStatistics] {
        currentViewers().sorted { $0.started < $1.started }.map { viewer in
            let figures = viewer.peer.figures
            let counters = viewer.counters()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - viewer.started.uptimeNanoseconds) / 1e9
            return WebRTCViewerStatistics(
                id: viewer.id, peer: viewer.peerAddress, seconds: seconds, live: viewer.isLive,
                framesSent: counters.frames, audioPacketsSent: counters.audio, skips: counters.skips,
                queuedBytes: viewer.queuedBytes,
                bitRate: seconds > 0 ? Int(Double(figures.bytesSent * 8) / seconds) : 0,
                roundTripMilliseconds: figures.roundTripSeconds.map { $0 * 1000 },
                packetsLost: figures.packetsLost, nacks: figures.nacks, plis: figures.plis,
                firs: figures.firs, retransmissionRequests: figures.retransmissionRequests,
                retransmissions: figures.retransmittedPackets, packetsSent: figures.packetsSent,
                rtcpPackets: figures.rtcpPackets, admittedBy: viewer.credential.description)
        }
    }

    /// Ends every viewer and the face's threads.
    public func stop() {
        let (wasStopped, all) = state.withLock { state in
            defer {
                state.stopped = true
                state.viewers.removeAll()
            }
            return (state.stopped, Array(state.viewers.values))
        }
        guard !wasStopped else { return }
        opus?.stop()
        stopSignal.signal()
        threads.wait()
        for viewer in all { viewer.close() }
    }

    // MARK: Inside

    /// The keyframe requests so far: received (PLI, FIR, viewers joining or skipping), forced, and
    /// feedback taken as answered by a keyframe already on its way.
    public var keyFrameRequests: (requests: Int, forced: Int, answeredInFlight: Int) {
        state.withLock { ($0.coalescer.requests, $0.coalescer.forced, $0.coalescer.answeredInFlight) }
    }

    /// A viewer wants a keyframe: by its feedback (PLI, FIR) or because it joined or skipped.
    private func keyFrameWanted(feedback: Bool) {
        let now = Self.seconds()
        let force = state.withLock { state in
            let wanted = feedback ? state.coalescer.feedback(at: now) : state.coalescer.request(at: now)
            return wanted ? state.forceKeyFrame : nil
        }
        force?()
    }

    /// Four times a second: serves a remembered keyframe request, drops silent or failed viewers.
    private func watch() {
        while stopSignal.wait(timeout: .now() + 0.25) == .timedOut {
            let now = Self.seconds()
            let force = state.withLock { $0.coalescer.due(at: now) ? $0.forceKeyFrame : nil }
            force?()
            for viewer in currentViewers() where shouldDrop(viewer) {
                if removeViewer(viewer.id) { state.withLock { $0.dropped += 1 } }
            }
        }
    }

    private func shouldDrop(_ viewer: WebRTCViewer) -> Bool {
        let figures = viewer.peer.figures
        if viewer.peer.failure != nil || figures.iceConnectionState == 4 || figures.iceConnectionState == 6 { return true }
        let age = Double(DispatchTime.now().uptimeNanoseconds - viewer.started.uptimeNanoseconds) / 1e9
        return (figures.secondsSinceRTCP ?? age) > configuration.consentTimeout.inSeconds
    }

    /// Seconds of the monotonic clock.
    private static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private static func newIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 0...UInt32.max, using: &generator)) }.joined()
    }
}

#endif
#endif
