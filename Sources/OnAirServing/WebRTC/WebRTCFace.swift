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
package final class WebRTCFace: PacketSink, @unchecked Sendable {
    /// What the session's messages call this sink.
    public let destination = "WebRTC viewers (/whep)"
    /// The configuration in force.
    public let configuration: WebRTCConfiguration
    let streams: Set<MediaType>
    let profile: H264Profile
    let localAddress: String?
    private let lock = NSLock()
    private var viewers: [String: WebRTCViewer] = [:]
    /// Places taken by offers being answered.
    private var reserved = 0
    private var coalescer: KeyFrameCoalescer
    private var forceKeyFrame: (@Sendable () -> Void)?
    private var stopped = false
    /// The one Opus encode for every viewer (nil without audio).
    private var opus: OpusFeed?
    private let threads = DispatchGroup()
    private let stopSignal = DispatchSemaphore(value: 0)
    /// Viewers admitted, refused for lack of room, and dropped for silence since the start.
    private(set) var admitted = 0, dropped = 0
    /// Viewers cut because a reload withdrew the token (or user) that admitted them.
    package var cutCredentialWithdrawn: Int {
        lock.lock()
        defer { lock.unlock() }
        return withdrawnCount
    }
    private var withdrawnCount = 0
    /// The sessions cut at a reload, whose own DELETE is answered without credentials.
    private var cutSessions = WHEPCutSessions()
    private var stillAdmits: (@Sendable (ServeCredential) -> Bool)?

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
        coalescer = KeyFrameCoalescer(minimumInterval: configuration.keyFrameInterval.inSeconds)
        if streams.contains(.audio) {
            opus = try OpusFeed(bitRate: configuration.opusBitRate, name: "onair-webrtc-opus") { [weak self] packet in
                guard let self else { return }
                for viewer in self.currentViewers() { viewer.enqueue(packet) }
            }
        }
        threads.startThread(named: "onair-webrtc-watch") { [self] in watch() }
    }

    /// Sets what forces the next encoded video frame to be a keyframe (the session's `forceKeyFrame`).
    public func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void) {
        lock.lock()
        forceKeyFrame = request
        lock.unlock()
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
            lock.lock()
            coalescer.keyFrameSent(at: now)
            lock.unlock()
        }
        for viewer in currentViewers() { viewer.enqueue(packet) }
    }

    /// Ends every viewer (the session is over).
    public func finish() throws {
        stop()
    }

    // MARK: Viewers

    /// How many viewers are connected or connecting, offers being answered included.
    public var viewerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return viewers.count + reserved
    }

    /// Takes a place for an offer about to be answered when fewer than `maximum` watch in all
    /// (`others` on other transports); false when full. `addViewer` gives the place back.
    func reserve(maximum: Int, others: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped, viewers.count + reserved + others < maximum else { return false }
        reserved += 1
        return true
    }

    func currentViewers() -> [WebRTCViewer] {
        lock.lock()
        defer { lock.unlock() }
        return Array(viewers.values)
    }

    /// Answers `offer` for a new viewer at `peer`: its id and the SDP answer.
    func addViewer(
        offer: String, peer peerAddress: String, choice: WebRTCCodecChoice, credential: ServeCredential = .anyone
    ) throws -> (id: String, answer: String) {
        var placeHeld = true
        defer {
            if placeHeld {
                lock.lock()
                reserved -= 1
                lock.unlock()
            }
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
        lock.lock()
        // Under the lock, as `cutViewers` looks: a reload that withdrew the credential meanwhile refuses it here.
        let withdrawn = !(stillAdmits?(credential) ?? true)
        let refused = stopped || withdrawn
        if !refused {
            viewers[id] = viewer
            admitted += 1
        }
        reserved -= 1
        placeHeld = false
        lock.unlock()
        if refused {
            viewer.close()
            throw GStreamerError.webRTC(withdrawn ? "the credentials were withdrawn" : "the server is stopping")
        }
        return (id, advertise(peer.localDescription))
    }

    /// Whether `id` is a session being served.
    func hasViewer(_ id: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return viewers[id] != nil
    }

    /// Ends the viewer `id`; false when there is none.
    func removeViewer(_ id: String) -> Bool {
        lock.lock()
        let viewer = viewers.removeValue(forKey: id)
        lock.unlock()
        viewer?.close()
        return viewer != nil
    }

    /// Whether `id` is a session a reload cut (forgotten once asked): its client's DELETE needs no
    /// credentials, which that reload withdrew.
    func wasCut(_ id: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return cutSessions.take(id)
    }

    /// Sets the judge of credentials `addViewer` asks at admission (the access policy's `stillAdmits`).
    func setCredentialCheck(_ stillAdmits: @escaping @Sendable (ServeCredential) -> Bool) {
        lock.lock()
        self.stillAdmits = stillAdmits
        lock.unlock()
    }

    /// Ends every viewer whose credential `stillAdmits` no longer accepts (a reload withdrew its
    /// token or user); returns how many.
    func cutViewers(stillAdmits: (ServeCredential) -> Bool) -> Int {
        lock.lock()
        let withdrawn = viewers.values.filter { !stillAdmits($0.credential) }
        for viewer in withdrawn {
            viewers[viewer.id] = nil
            cutSessions.insert(viewer.id)
        }
        withdrawnCount += withdrawn.count
        lock.unlock()
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
        lock.lock()
        let wasStopped = stopped
        stopped = true
        let all = Array(viewers.values)
        viewers.removeAll()
        lock.unlock()
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
        lock.lock()
        defer { lock.unlock() }
        return (coalescer.requests, coalescer.forced, coalescer.answeredInFlight)
    }

    /// A viewer wants a keyframe: by its feedback (PLI, FIR) or because it joined or skipped.
    private func keyFrameWanted(feedback: Bool) {
        let now = Self.seconds()
        lock.lock()
        let wanted = feedback ? coalescer.feedback(at: now) : coalescer.request(at: now)
        let force = wanted ? forceKeyFrame : nil
        lock.unlock()
        force?()
    }

    /// Four times a second: serves a remembered keyframe request, drops silent or failed viewers.
    private func watch() {
        while stopSignal.wait(timeout: .now() + 0.25) == .timedOut {
            let now = Self.seconds()
            lock.lock()
            let force = coalescer.due(at: now) ? forceKeyFrame : nil
            lock.unlock()
            force?()
            for viewer in currentViewers() where shouldDrop(viewer) {
                if removeViewer(viewer.id) {
                    lock.lock()
                    dropped += 1
                    lock.unlock()
                }
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
