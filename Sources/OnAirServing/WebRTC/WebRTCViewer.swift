#if os(Linux)
#if canImport(OnAirGStreamer)
import Foundation
import OnAirCore
import OnAirGStreamer

/// One WHEP viewer: its `WebRTCPeer` (a webrtcbin pipeline of its own), into whose appsrcs the
/// face's threads push each packet directly (a push copies the bytes into a GStreamer buffer and
/// never blocks; the pipeline's streaming threads take it from there).
///
/// The viewer starts at a keyframe: until its DTLS is up nothing is sent (it would be lost) — a short
/// thread of its own watches for that — then it asks for a keyframe and waits for the next one,
/// sending no replayed GOP. When its pipeline's backlog (the appsrcs are unbounded) would pass
/// `queueBytes`, the packet is left out and the viewer waits for the next keyframe that fits (counted
/// as a skip; see `WebRTCViewerGate`): a viewer whose streaming thread falls behind costs its own
/// picture, never the others' memory or latency. Media times become pipeline running time by one
/// offset for both streams, so RTP timestamps and sender reports keep the capture's A/V alignment.
///
/// (Each packet once had a hop through a thread of the viewer's own before its push: one more
/// wake-up and context switch per packet per viewer, for a queue the unbounded appsrc emptied at once.)
final class WebRTCViewer: Sendable {
    /// The session identifier in the resource URL (/whep/ID): 128 random bits in hex.
    let id: String
    let peer: WebRTCPeer
    let peerAddress: String
    /// What admitted the viewer (a reload that withdraws it cuts the viewer).
    let credential: ServeCredential
    let started = DispatchTime.now()
    private let requestKeyFrame: @Sendable () -> Void
    private let video: GStreamerAppSource?
    private let audio: GStreamerAppSource?
    private let connecting = DispatchGroup()
    private struct State {
        var gate: WebRTCViewerGate
        var closed = false
        var offset: Int64?
        /// Counters for /stats.json.
        var framesSent = 0, audioPacketsSent = 0, bytesPushed = 0
    }

    /// Pushes are made inside the box too: the offset is shared by both streams.
    private let state: Locked<State>

    init(
        id: String, peer: WebRTCPeer, peerAddress: String, credential: ServeCredential = .anyone, queueBytes: Int,
        requestKeyFrame: @escaping @Sendable () -> Void
    ) {
        self.id = id
        self.peer = peer
        self.peerAddress = peerAddress
        self.credential = credential
        state = Locked(State(gate: WebRTCViewerGate(limit: queueBytes)))
        self.requestKeyFrame = requestKeyFrame
        video = peer.source(named: "video")
        audio = peer.source(named: "audio")
        connecting.startThread(named: "onair-webrtc-\(id.prefix(6))") { [self] in waitForDTLS() }
    }

    /// Pushes a packet (H.264 or Opus) into the viewer's pipeline, or leaves it out (see the type's
    /// description); never blocks.
    func enqueue(_ packet: EncodedPacket) {
        guard let source = packet.mediaType == .video ? video : audio else { return }
        let backlog = pipelineBytes
        let decision = state.withLock { state -> WebRTCViewerGate.Decision? in
            guard !state.closed else { return nil }
            let decision = state.gate.admit(
                bytes: packet.byteCount, keyFrame: packet.mediaType == .video && packet.isKeyframe, queued: 0, backlog: backlog)
            if decision == .take || decision == .restart { Self.push(packet, into: source, state: &state) }
            return decision
        }
        if decision == .skip { requestKeyFrame() }
    }

    /// Whether the viewer is past its handshake and has its first keyframe.
    var isLive: Bool { state.withLock { $0.gate.state == .live } }

    /// Bytes in the pipeline's appsrcs that its streaming threads have not taken yet.
    private var pipelineBytes: Int { (video?.queuedBytes ?? 0) + (audio?.queuedBytes ?? 0) }

    /// Bytes waiting for the viewer: its pipeline's backlog.
    var queuedBytes: Int { pipelineBytes }

    /// Until DTLS is up (or the viewer is closed): then the next keyframe starts it.
    private func waitForDTLS() {
        while true {
            if state.withLock({ $0.closed }) { return }
            if peer.figures.dtlsConnected { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        state.withLock { $0.gate.connected() }
        requestKeyFrame()
    }

    /// Pushes inside the box (the offset is shared by both streams).
    private static func push(_ packet: EncodedPacket, into source: GStreamerAppSource, state: inout State) {
        let pts = packet.pts.nanoseconds
        if state.offset == nil { state.offset = (source.runningTime ?? 0) - pts }
        let offset = state.offset ?? 0
        let time = pts + offset
        let result = packet.payload.withUnsafeBytes { bytes in
            source.push(
                bytes, pts: time, dts: packet.dts.nanoseconds + offset, duration: packet.duration.nanoseconds,
                isKeyframe: packet.isKeyframe)
        }
        guard result == .accepted else { return }
        if packet.mediaType == .video { state.framesSent += 1 } else { state.audioPacketsSent += 1 }
        state.bytesPushed += packet.byteCount
    }

    /// Counters, read in the box.
    func counters() -> (frames: Int, audio: Int, skips: Int, bytes: Int) {
        state.withLock { ($0.framesSent, $0.audioPacketsSent, $0.gate.skips, $0.bytesPushed) }
    }

    /// Ends the viewer: no more pushes, then its pipeline stops.
    func close() {
        let wasClosed = state.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        connecting.wait()
        video?.end()
        audio?.end()
        peer.close()
    }
}

#endif
#endif
