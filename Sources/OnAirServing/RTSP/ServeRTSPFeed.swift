#if os(Linux)
#if canImport(OnAirGStreamer)
import Foundation
import OnAirCore
import OnAirGStreamer

/// Feeds one RTSP client's own pipeline, on a thread of its own: first with what describes the
/// stream (DESCRIBE), then, once the client PLAYs, from that client's hub viewer.
///
/// Before PLAY the client holds no viewer slot: gst-rtsp-server answers DESCRIBE only once each
/// payloader has sent a packet (its caps then carry the SDP's parameters), so the pipeline is
/// primed with the latest SPS and PPS and the latest audio frame, which wait at the payloaders
/// until PLAY. `play(opening:)` opens the viewer (the hub's admission decides); its keyframe
/// cache follows at once.
///
/// The client's sending never holds up anyone else: its packets come only from its own bounded
/// queue in the hub. While its pipeline has more than `backlogBytes` not yet sent (a TCP client
/// that stopped reading backs its pipeline up), the feed stops taking from the queue, so the
/// queue fills, skips to the next keyframe and, past the viewer timeout, the client is cut.
///
/// Over UDP the first packets are paced (`ServeJoinPacer`): the keyframe cache leaves at twice
/// real time rather than at once, so a player's receive buffer is not overrun at its join.
///
/// Times: the first packet from the viewer, the keyframe, takes the primed parameter sets' time
/// (`originRunningTime`); every packet, audio and video, keeps its distance from it, so RTCP
/// sender reports put both streams on one clock. The times
/// do not pace sending: the shim turns clock sync off on the client's sinks, so the keyframe
/// cache's burst goes out at once and live packets as they come (with sync on, every packet
/// waited for its running time: a GOP of delay, 1.6 s p50 at 720p30 with 2 s keyframes).
final class ServeRTSPFeed: Sendable {
    private let media: RTSPClientMedia
    private let source: ServeElementarySink
    /// Where the feeding thread waits for PLAY or a stop. Its lock is taken first, around the
    /// box's, by a wait and by every change a wait is for, so a wake cannot fall between a check and its wait.
    private let condition = NSCondition()
    private struct State {
        var stopped = false
        var finished = false
        var viewer: ServeViewer?
        var transport: String?
        /// The feeding thread's own: the first packet's time and running time, the streams with caps set.
        var origin: (seconds: Double, runningTime: Int64)?
        var capsSet: Set<MediaType> = []
        /// The primed audio frame's time: audio stamped up to it is not sent.
        var primedUntil: Int64 = -1
        /// The primed parameter sets' time: the first keyframe is stamped with it when it can be.
        var primedVideoAt: Int64?
    }

    private let state = Locked(State())

    /// Hands a packet's bytes to a push.
    private typealias Bytes = ((UnsafeRawBufferPointer) -> GStreamerAppSource.PushResult) -> GStreamerAppSource.PushResult

    /// Bytes waiting in the pipeline's sources past which the feed stops taking from the queue.
    static let backlogBytes = 256 * 1024
    /// How far the first stamps run ahead of the pipeline's running time: room for PLAY to come
    /// a little after DESCRIBE, and for audio that began before the keyframe.
    static let leadNanoseconds: Int64 = 500_000_000

    /// The client's IP address.
    var peer: String { media.peer }
    /// The encode the client watches (`ServeHub.main`, or a further encode's name).
    var rendition: String { source.rendition }

    /// A feed of `media` from the streams `source` publishes.
    init(media: RTSPClientMedia, source: ServeElementarySink) {
        self.media = media
        self.source = source
    }

    /// Starts the feeding thread; `group` is left when it ends.
    func start(in group: DispatchGroup) {
        group.startThread(named: "onair.serve.rtsp.feed") { [self] in
            RTSPFeedThread.name("rtsp-feed")
            if prime(), let viewer = waitForViewer() { run(viewer) }
            let viewer = changing { state in
                state.finished = true
                return state.viewer
            }
            viewer?.close()
        }
    }

    /// Lets the client play: opens its viewer with `open` the first time (a PLAY after PAUSE
    /// keeps it). Throws what `open` throws (the hub full), or `ServeRefusal.stopping`.
    func play(opening open: () throws -> ServeViewer) throws {
        // The condition is held while `open` runs (as the one lock was), so a stop or the thread's end waits for it.
        condition.lock()
        defer { condition.unlock() }
        let (playing, ending, transport) = state.withLock { ($0.viewer != nil, $0.stopped || $0.finished, $0.transport) }
        guard !playing else { return }
        guard !ending else { throw ServeRefusal.stopping }
        let opened = try open()
        if let transport { opened.setTransport(transport) }
        state.withLock { $0.viewer = opened }
        condition.broadcast()
    }

    /// Runs `body` on the state with the condition's lock held, then the box's: how every change a
    /// wait may be for is made.
    private func changing<Result>(_ body: (inout State) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return state.withLock(body)
    }

    /// Names the transport the client chose in SETUP ("rtsp/udp", "rtsp/tcp") in its statistics.
    func setTransport(_ name: String) {
        let viewer = changing { state in
            state.transport = name
            return state.viewer
        }
        viewer?.setTransport(name)
    }

    /// Asks the thread to end (it closes the viewer); does not wait.
    func stop() {
        changing { state in
            state.stopped = true
            condition.broadcast()
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func waitForViewer() -> ServeViewer? {
        condition.lock()
        defer { condition.unlock() }
        while state.withLock({ $0.viewer == nil && !$0.stopped }) { condition.wait() }
        return state.withLock { $0.stopped ? nil : $0.viewer }
    }

    /// Waits `seconds` or until stopped; false when stopped.
    private func waitUnlessStopped(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isStopped && condition.wait(until: deadline) {}
        return !isStopped
    }

    private var backlog: Int { (media.video?.queuedBytes ?? 0) + (media.audio?.queuedBytes ?? 0) }

    private func run(_ viewer: ServeViewer) {
        var sending = TransportWatch()
        // Over UDP nothing slows the keyframe cache's burst down but the player's receive buffer.
        var pacer = state.withLock { $0.transport } == "rtsp/udp" ? ServeJoinPacer() : nil
        while !isStopped {
            if backlog > Self.backlogBytes || !sending.stillSending(media) {
                if viewer.cutIfTooFarBehind(context: "held back: \(backlog) bytes waiting in the pipeline, \(sending)") {
                    return cutClient()
                }
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            switch viewer.readChunk(wait: 0.25) {
            case .chunk(let chunk):
                guard let packet = chunk.packet else { return endSources() }
                if let wait = pacer?.delay(media: packet.dts.seconds, now: ProcessInfo.processInfo.systemUptime), wait > 0,
                    !waitUnlessStopped(seconds: wait)
                {
                    return endSources()
                }
                guard push(packet) else { return endSources() }
            case .nothing:
                continue
            case .end:
                return endSources()
            case .cut:
                return cutClient()
            }
        }
    }

    /// Whether gst-rtsp-server still sends to the client, read at most four times a second: not
    /// once the media has fewer transports than it had after PLAY. gst-rtsp-server drops a TCP
    /// transport it finds too slow (its own backlog past ten seconds, or a send error) without
    /// closing the connection, and the client then waits on an open connection for nothing; the
    /// feed treats that client as one that stopped reading, so its queue fills, it skips and is
    /// cut after the viewer timeout like any other. (A PAUSE has the same effect.)
    private struct TransportWatch: CustomStringConvertible {
        private var most = 0
        private var latest = 0
        private var checked = -Double.infinity
        private var sending: Bool { latest >= most }

        mutating func stillSending(_ media: RTSPClientMedia) -> Bool {
            let now = ProcessInfo.processInfo.systemUptime
            guard now - checked >= 0.25 else { return sending }
            checked = now
            latest = media.transports
            most = max(most, latest)
            return sending
        }

        var description: String { "\(latest) of \(most) transports sending" }
    }

    private func cutClient() {
        media.client?.close()
    }

    private func endSources() {
        media.video?.end()
        media.audio?.end()
    }

    /// Pushes the latest parameter sets and audio frame once they exist; false when stopped or
    /// the pipeline ended first. Both are stamped with the running time plus the lead, and the
    /// first keyframe after PLAY takes the same time (`originRunningTime`): players that line the
    /// streams up by their first packets until the first RTCP report (ffmpeg) then see no jump,
    /// and audio from the viewer's cache stamped up to the primed frame is left out
    /// (`primedUntil`), so each stream's times rise.
    private func prime() -> Bool {
        while !isStopped {
            let video = source.formatDescription(of: .video)
            let audio = source.latestAudioPacket
            if (media.video != nil && video == nil) || (media.audio != nil && audio == nil) {
                Thread.sleep(forTimeInterval: 0.02)
                continue
            }
            let lead = Self.leadNanoseconds
            var stamped: Int64 = 0
            let stamp = { (running: Int64?, duration: Int64) -> (pts: Int64, dts: Int64, duration: Int64)? in
                stamped = (running ?? 0) + lead
                return (stamped, stamped, duration)
            }
            if let target = media.video, let video {
                let startCode: [UInt8] = [0, 0, 0, 1]
                let bytes = video.parameterSets.flatMap { startCode + $0 }
                guard
                    deliver(
                        { bytes.withUnsafeBytes($0) }, to: target, type: .video, isKeyframe: true, times: { stamp($0, 0) })
                else { return false }
                state.withLock { $0.primedVideoAt = stamped }
            }
            if let target = media.audio, let audio {
                let duration = Int64((audio.duration.seconds * 1e9).rounded())
                guard
                    deliver(
                        { audio.payload.withUnsafeBytes($0) }, to: target, type: .audio, isKeyframe: true,
                        times: { stamp($0, duration) })
                else { return false }
                state.withLock { $0.primedUntil = stamped }
            }
            return true
        }
        return false
    }

    /// Pushes one packet from the viewer; false when the pipeline has ended.
    private func push(_ packet: EncodedPacket) -> Bool {
        guard let target = packet.mediaType == .video ? media.video : media.audio else { return true }
        return deliver(
            { packet.payload.withUnsafeBytes($0) }, to: target, type: packet.mediaType, isKeyframe: packet.isKeyframe,
            times: { self.timestamps(of: packet, running: $0) })
    }

    /// Pushes bytes with the times `times` gives for the running time now (nil: skip them),
    /// setting the source's caps first and waiting while the pipeline is not started yet;
    /// false when it has ended or stopped.
    private func deliver(
        _ bytes: Bytes, to target: GStreamerAppSource, type: MediaType, isKeyframe: Bool,
        times: (Int64?) -> (pts: Int64, dts: Int64, duration: Int64)?
    ) -> Bool {
        if !state.withLock({ $0.capsSet.contains(type) }) {
            guard setCaps(of: target, for: type) else { return true }
            state.withLock { _ = $0.capsSet.insert(type) }
        }
        while !isStopped {
            guard let stamp = times(target.runningTime) else { return true }
            let result = bytes { raw in
                target.push(raw, pts: stamp.pts, dts: stamp.dts, duration: stamp.duration, isKeyframe: isKeyframe)
            }
            switch result {
            case .accepted: return true
            case .notReady: Thread.sleep(forTimeInterval: 0.005)
            case .ended, .failed: return false
            }
        }
        return false
    }

    private func setCaps(of target: GStreamerAppSource, for type: MediaType) -> Bool {
        do {
            if type == .video {
                try target.setCaps(ServeRTSPPipeline.videoCaps(codec: source.codec))
            } else {
                guard let config = source.formatDescription(of: .audio)?.audioSpecificConfig, !config.isEmpty else { return false }
                try target.setCaps(ServeRTSPPipeline.audioCaps(audioSpecificConfig: config))
            }
            return true
        } catch {
            return false
        }
    }

    /// The running time the first packet from the viewer (the cache's keyframe) is stamped with,
    /// given the primed parameter sets' time and the running time now: the primed time while the
    /// clock has not passed it (the stamps' lead not used up between DESCRIBE and PLAY), else
    /// now plus the lead. A player that parses H.264 into access units (ffmpeg) gives the
    /// keyframe the time of the packet its access unit began with, the primed parameter sets:
    /// stamped at PLAY instead, the keyframe's picture came early by the time from DESCRIBE to
    /// PLAY (49 ms on loopback, 80 ms on a loaded machine) and played that much ahead of its
    /// sound until the first RTCP sender report.
    static func originRunningTime(primedVideoAt: Int64?, running: Int64?, isVideo: Bool) -> Int64 {
        let now = running ?? 0
        if isVideo, let primedVideoAt, primedVideoAt >= now { return primedVideoAt }
        return now + leadNanoseconds
    }

    private func timestamps(of packet: EncodedPacket, running: Int64?) -> (pts: Int64, dts: Int64, duration: Int64)? {
        let (origin, primedUntil) = state.withLock { state in
            if state.origin == nil {
                state.origin = (
                    packet.pts.seconds,
                    Self.originRunningTime(primedVideoAt: state.primedVideoAt, running: running, isVideo: packet.mediaType == .video)
                )
            }
            return (state.origin, state.primedUntil)
        }
        guard let origin else { return nil }
        func nanoseconds(_ time: MediaTime) -> Int64 { origin.runningTime + Int64(((time.seconds - origin.seconds) * 1e9).rounded()) }
        let pts = nanoseconds(packet.pts)
        // Audio from well before the first keyframe, or stamped before the primed audio frame.
        guard pts >= 0, packet.mediaType != .audio || pts > primedUntil else { return nil }
        return (pts, max(0, nanoseconds(packet.dts)), Int64((packet.duration.seconds * 1e9).rounded()))
    }
}
#endif
#endif
