#if canImport(OnAirGStreamer)
import Foundation
import OnAirCore
import OnAirGStreamer

/// One WHEP viewer: its `WebRTCPeer` (a webrtcbin pipeline of its own) and the bounded queue of
/// packets waiting for it, emptied into the pipeline's appsrcs by the viewer's own thread.
///
/// The viewer starts at a keyframe: until its DTLS is up nothing is sent (it would be lost); then it
/// asks for a keyframe and waits for the next one, sending no replayed GOP. When its queue and its
/// pipeline's backlog together pass `queueBytes`, the queue is emptied and the viewer waits for the
/// next keyframe again (counted as a skip; see `WebRTCViewerGate`): the appsrcs themselves are
/// unbounded, so their backlog is what shows a viewer whose streaming thread falls behind.
/// Media times become pipeline running time by one offset for both streams, so RTP timestamps and
/// sender reports keep the capture's A/V alignment.
final class WebRTCViewer: @unchecked Sendable {
    /// The session identifier in the resource URL (/whep/ID): 128 random bits in hex.
    let id: String
    let peer: WebRTCPeer
    let peerAddress: String
    let started = DispatchTime.now()
    private let queueBytes: Int
    private let requestKeyFrame: @Sendable () -> Void
    private let video: GStreamerAppSource?
    private let audio: GStreamerAppSource?
    private let lock = NSLock()
    private let wake = NSCondition()
    private var queue: [EncodedPacket] = []
    private var queuedBytesInQueue = 0
    private var gate: WebRTCViewerGate
    private var closed = false
    private var offset: Int64?
    private let done = DispatchGroup()
    /// Counters for /stats.json.
    private(set) var framesSent = 0, audioPacketsSent = 0, bytesPushed = 0

    init(id: String, peer: WebRTCPeer, peerAddress: String, queueBytes: Int, requestKeyFrame: @escaping @Sendable () -> Void) {
        self.id = id
        self.peer = peer
        self.peerAddress = peerAddress
        self.queueBytes = queueBytes
        gate = WebRTCViewerGate(limit: queueBytes)
        self.requestKeyFrame = requestKeyFrame
        video = peer.source(named: "video")
        audio = peer.source(named: "audio")
        done.startThread(named: "onair-webrtc-\(id.prefix(6))") { [self] in run() }
    }

    /// Queues a packet (H.264 or Opus) for the viewer; never blocks.
    func enqueue(_ packet: EncodedPacket) {
        let backlog = pipelineBytes
        wake.lock()
        guard !closed else {
            wake.unlock()
            return
        }
        let decision = gate.admit(
            bytes: packet.byteCount, keyFrame: packet.mediaType == .video && packet.isKeyframe, queued: queuedBytesInQueue,
            backlog: backlog)
        switch decision {
        case .refuse:
            break
        case .skip:
            queue.removeAll()
            queuedBytesInQueue = 0
        case .restart, .take:
            if decision == .restart {
                queue.removeAll()
                queuedBytesInQueue = 0
            }
            queue.append(packet)
            queuedBytesInQueue += packet.byteCount
            wake.signal()
        }
        wake.unlock()
        if decision == .skip { requestKeyFrame() }
    }

    /// Whether the viewer is past its handshake and has its first keyframe.
    var isLive: Bool {
        wake.lock()
        defer { wake.unlock() }
        return gate.state == .live
    }

    /// Bytes in the pipeline's appsrcs that its streaming threads have not taken yet.
    private var pipelineBytes: Int { (video?.queuedBytes ?? 0) + (audio?.queuedBytes ?? 0) }

    /// Bytes waiting for the viewer: its queue and its pipeline's backlog.
    var queuedBytes: Int {
        wake.lock()
        let queued = queuedBytesInQueue
        wake.unlock()
        return queued + pipelineBytes
    }

    private func run() {
        while true {
            wake.lock()
            while queue.isEmpty && !closed {
                if gate.state == .connecting {
                    wake.unlock()
                    if peer.figures.dtlsConnected {
                        wake.lock()
                        gate.connected()
                        wake.unlock()
                        requestKeyFrame()
                    } else {
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                    wake.lock()
                    continue
                }
                _ = wake.wait(until: Date(timeIntervalSinceNow: 0.5))
            }
            if closed {
                wake.unlock()
                return
            }
            let packets = queue
            queue.removeAll()
            queuedBytesInQueue = 0
            wake.unlock()
            for packet in packets { push(packet) }
        }
    }

    private func push(_ packet: EncodedPacket) {
        guard let source = packet.mediaType == .video ? video : audio else { return }
        let pts = packet.pts.nanoseconds
        if offset == nil { offset = (source.runningTime ?? 0) - pts }
        let time = pts + (offset ?? 0)
        let result = packet.payload.withUnsafeBytes { bytes in
            source.push(
                bytes, pts: time, dts: packet.dts.nanoseconds + (offset ?? 0), duration: packet.duration.nanoseconds,
                isKeyframe: packet.isKeyframe)
        }
        guard result == .accepted else { return }
        lock.lock()
        if packet.mediaType == .video { framesSent += 1 } else { audioPacketsSent += 1 }
        bytesPushed += packet.byteCount
        lock.unlock()
    }

    /// Counters, read under the lock.
    func counters() -> (frames: Int, audio: Int, skips: Int, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        wake.lock()
        defer { wake.unlock() }
        return (framesSent, audioPacketsSent, gate.skips, bytesPushed)
    }

    /// Ends the viewer: stops its thread and its pipeline.
    func close() {
        wake.lock()
        let wasClosed = closed
        closed = true
        queue.removeAll()
        wake.broadcast()
        wake.unlock()
        guard !wasClosed else { return }
        done.wait()
        video?.end()
        audio?.end()
        peer.close()
    }
}

extension MediaTime {
    /// The time in nanoseconds (GStreamer's unit).
    var nanoseconds: Int64 { converted(to: 1_000_000_000).value }
}
#endif
