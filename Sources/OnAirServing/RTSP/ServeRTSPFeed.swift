#if canImport(OnAirGStreamer)
import Foundation
import OnAirCore
import OnAirGStreamer

/// Feeds one RTSP client's own pipeline from that client's hub viewer, on a thread of its own.
///
/// The client's sending never holds up anyone else: its packets come only from its own bounded
/// queue in the hub. While its pipeline has more than `backlogBytes` not yet sent (a TCP client
/// that stopped reading backs its pipeline up), the feed stops taking from the queue, so the
/// queue fills, skips to the next keyframe and, past the viewer timeout, the client is cut.
///
/// Times: the first packet's presentation time maps to the pipeline's running time then (plus
/// a margin for audio that began a little before the keyframe); every packet, audio and video,
/// keeps its distance from it, so RTCP sender reports put both streams on one clock. The times
/// do not pace sending: the shim turns clock sync off on the client's sinks, so the keyframe
/// cache's burst goes out at once and live packets as they come (with sync on, every packet
/// waited for its running time: a GOP of delay, 1.6 s p50 at 720p30 with 2 s keyframes).
final class ServeRTSPFeed: @unchecked Sendable {
    let viewer: ServeViewer
    private let media: RTSPClientMedia
    private let descriptions: @Sendable (MediaType) -> FormatDescription?
    private let lock = NSLock()
    private var stopped = false
    private var origin: (seconds: Double, runningTime: Int64)?
    private var capsSet: Set<MediaType> = []

    /// Bytes waiting in the pipeline's sources past which the feed stops taking from the queue.
    static let backlogBytes = 256 * 1024
    /// Audio up to this long before the first keyframe is still sent.
    static let leadNanoseconds: Int64 = 500_000_000

    init(viewer: ServeViewer, media: RTSPClientMedia, descriptions: @escaping @Sendable (MediaType) -> FormatDescription?) {
        self.viewer = viewer
        self.media = media
        self.descriptions = descriptions
    }

    /// Starts the feeding thread; `group` is left when it ends.
    func start(in group: DispatchGroup) {
        group.startThread(named: "onair.serve.rtsp.\(viewer.id)") { [self] in
            run()
            viewer.close()
        }
    }

    /// Asks the thread to end (it closes the viewer); does not wait.
    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private var backlog: Int { (media.video?.queuedBytes ?? 0) + (media.audio?.queuedBytes ?? 0) }

    private func run() {
        while !isStopped {
            if backlog > Self.backlogBytes {
                if viewer.cutIfTooFarBehind() { return cutClient() }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            switch viewer.readChunk(wait: 0.25) {
            case .chunk(let chunk):
                guard let packet = chunk.packet, push(packet) else { return endSources() }
            case .nothing:
                continue
            case .end:
                return endSources()
            case .cut:
                return cutClient()
            }
        }
    }

    private func cutClient() {
        media.client?.close()
    }

    private func endSources() {
        media.video?.end()
        media.audio?.end()
    }

    /// Pushes one packet, waiting while the pipeline is not started yet; false when it has ended.
    private func push(_ packet: EncodedPacket) -> Bool {
        guard let source = packet.mediaType == .video ? media.video : media.audio else { return true }
        if !capsSet.contains(packet.mediaType) {
            guard setCaps(of: source, for: packet.mediaType) else { return true }
            capsSet.insert(packet.mediaType)
        }
        while !isStopped {
            let times = timestamps(of: packet, running: source.runningTime)
            guard let pts = times.pts else { return true }  // audio from well before the first keyframe
            let result = packet.payload.withUnsafeBytes { bytes in
                source.push(bytes, pts: pts, dts: times.dts, duration: times.duration, isKeyframe: packet.isKeyframe)
            }
            switch result {
            case .accepted: return true
            case .notReady: Thread.sleep(forTimeInterval: 0.005)
            case .ended, .failed: return false
            }
        }
        return false
    }

    private func setCaps(of source: GStreamerAppSource, for type: MediaType) -> Bool {
        do {
            if type == .video {
                try source.setCaps(ServeRTSPPipeline.videoCaps)
            } else {
                guard let config = descriptions(.audio)?.audioSpecificConfig, !config.isEmpty else { return false }
                try source.setCaps(ServeRTSPPipeline.audioCaps(audioSpecificConfig: config))
            }
            return true
        } catch {
            return false
        }
    }

    private func timestamps(of packet: EncodedPacket, running: Int64?) -> (pts: Int64?, dts: Int64?, duration: Int64?) {
        if origin == nil { origin = (packet.pts.seconds, (running ?? 0) + Self.leadNanoseconds) }
        guard let origin else { return (nil, nil, nil) }
        func nanoseconds(_ time: MediaTime) -> Int64 { origin.runningTime + Int64(((time.seconds - origin.seconds) * 1e9).rounded()) }
        let pts = nanoseconds(packet.pts)
        guard pts >= 0 else { return (nil, nil, nil) }
        return (pts, max(0, nanoseconds(packet.dts)), Int64((packet.duration.seconds * 1e9).rounded()))
    }
}
#endif
