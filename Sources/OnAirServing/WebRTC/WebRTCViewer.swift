#if os(Linux)
#if canImport(OnAirGStreamer)
import Foundation
import OnAirCore
import OnAirGStreamer

/// One WHEP viewer: its `WebRTCPeer` (a webrtcbin of its own: ICE, DTLS-SRTP, RTCP, NACKs answered
/// with RTX), into which the face's threads push the access units the face packetized once for
/// every viewer (`WebRTCAccessUnit`), each packet with this viewer's own RTP header: its SSRC (the
/// one the SDP answer names), the payload type its offer chose, its own sequence numbers and
/// timestamp offset (`RTPClientRewrite`). The push runs in the face's thread through webrtcbin down
/// to the socket (never blocking: the ICE sink does not wait, the retransmission store holds
/// references to the shared payloads), so the viewer has no thread and no queue of its own.
///
/// The viewer starts at a keyframe: until DTLS-SRTP has its keys nothing is sent (webrtcbin would
/// hold it back) — the peer says so (`onMediaReady`, which also asks for a keyframe) — then it
/// waits for the next keyframe, sending no replayed GOP. `WebRTCViewerGate` holds that policy; with
/// nothing waiting for the viewer, its backlog bound has nothing to bound (a viewer that cannot take
/// the rate loses packets at its socket, and its NACKs and PLIs repair it). Media times become
/// pipeline running time by one offset for both streams, so RTP timestamps and sender reports keep
/// the capture's A/V alignment.
final class WebRTCViewer: Sendable {
    /// The session identifier in the resource URL (/whep/ID): 128 random bits in hex.
    let id: String
    let peer: WebRTCPeer
    let peerAddress: String
    /// What admitted the viewer (a reload that withdraws it cuts the viewer).
    let credential: ServeCredential
    let started = DispatchTime.now()
    private let requestKeyFrame: @Sendable () -> Void
    private struct State {
        var gate: WebRTCViewerGate
        var closed = false
        var offset: Int64?
        /// The viewer's RTP headers per stream (nil: a stream its offer did not take).
        var video: RTPClientRewrite?, audio: RTPClientRewrite?
        /// Counters for /stats.json.
        var framesSent = 0, audioPacketsSent = 0, bytesPushed = 0
    }

    /// Pushes are made inside the box too: the offset is shared by both streams, and `close` then
    /// never stops the peer under a push.
    private let state: Locked<State>

    init(
        id: String, peer: WebRTCPeer, peerAddress: String, credential: ServeCredential = .anyone, queueBytes: Int,
        video: RTPClientRewrite?, audio: RTPClientRewrite?, requestKeyFrame: @escaping @Sendable () -> Void
    ) {
        self.id = id
        self.peer = peer
        self.peerAddress = peerAddress
        self.credential = credential
        state = Locked(State(gate: WebRTCViewerGate(limit: queueBytes), video: video, audio: audio))
        self.requestKeyFrame = requestKeyFrame
    }

    /// Pushes an access unit (H.264 or Opus) to the viewer, or leaves it out (see the type's
    /// description); never blocks.
    func send(_ unit: WebRTCAccessUnit) {
        let decision = state.withLock { state -> WebRTCViewerGate.Decision? in
            // The peer is read only while not closed (`close` stops it after marking the box).
            guard !state.closed else { return nil }
            if state.gate.state == .connecting && peer.isMediaReady { state.gate.connected() }
            let video = unit.mediaType == .video
            guard (video ? state.video : state.audio) != nil else { return nil }
            let decision = state.gate.admit(bytes: unit.byteCount, keyFrame: video && unit.isKeyframe, queued: 0, backlog: 0)
            if decision == .take || decision == .restart { push(unit, state: &state) }
            return decision
        }
        if decision == .skip { requestKeyFrame() }
    }

    /// Whether the viewer is past its handshake and has its first keyframe.
    var isLive: Bool { state.withLock { $0.gate.state == .live } }

    /// Bytes waiting for the viewer: none (a push goes down to the socket in the pushing thread).
    var queuedBytes: Int { 0 }

    /// Pushes inside the box with the viewer's headers (its rewrite counts only packets taken).
    private func push(_ unit: WebRTCAccessUnit, state: inout State) {
        let video = unit.mediaType == .video
        guard var rewrite = video ? state.video : state.audio else { return }
        if state.offset == nil { state.offset = (peer.runningTime ?? 0) - unit.pts }
        let offset = state.offset ?? 0
        var headers = [UInt8]()
        headers.reserveCapacity(unit.packets.count * RTPHeader.size)
        for packet in unit.packets {
            rewrite.header(for: packet).withUnsafeBytes { headers.append(contentsOf: $0) }
        }
        let result = headers.withUnsafeBytes { bytes in
            peer.push(unit.payloads, headers: bytes, on: video ? .video : .audio, pts: unit.pts + offset, dts: unit.dts + offset)
        }
        guard result == .accepted else { return }
        if video {
            state.video = rewrite
            state.framesSent += 1
        } else {
            state.audio = rewrite
            state.audioPacketsSent += 1
        }
        state.bytesPushed += unit.byteCount
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
        peer.close()
    }
}

/// One encoded packet as RTP, packetized once by the face for every viewer: the shared packets
/// (sequence numbers and timestamps of the track's line; each viewer puts its own header on) and
/// their payloads in one block GStreamer holds (`WebRTCRTPPayloads`). Used on the thread that made it.
struct WebRTCAccessUnit {
    let mediaType: MediaType
    let isKeyframe: Bool
    /// The encoded packet's size, what the gate and the counters count.
    let byteCount: Int
    /// Presentation and decoding times in nanoseconds of the media time line.
    let pts: Int64, dts: Int64
    let packets: [RTPPacket]
    let payloads: WebRTCRTPPayloads

    /// The unit of `packet` as `packets`; nil when there is nothing to send.
    init?(_ packet: EncodedPacket, packets: [RTPPacket]) {
        let made = WebRTCRTPPayloads(sizes: packets.map(\.payloadCount)) { block in
            var at = 0
            for rtp in packets {
                rtp.withPayloadParts { prefix, body in
                    for part in [prefix, body] where !part.isEmpty {
                        UnsafeMutableRawBufferPointer(rebasing: block[at..<(at + part.count)]).copyMemory(from: part)
                        at += part.count
                    }
                }
            }
        }
        guard let made else { return nil }
        mediaType = packet.mediaType
        isKeyframe = packets.first?.startsKeyframe ?? false
        byteCount = packet.byteCount
        pts = packet.pts.nanoseconds
        dts = packet.dts.nanoseconds
        self.packets = packets
        payloads = made
    }
}

#endif
#endif
