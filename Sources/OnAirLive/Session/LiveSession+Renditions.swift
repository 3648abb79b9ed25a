import Foundation
import OnAirCore

/// A further video encode of the session's capture (a sub stream): the same frames, taken at its
/// own rate (`FrameDecimator`), scaled by its own encoder (once per frame taken) with its own
/// keyframes, into its own sinks. The session's audio packets go to its sinks too.
/// Unchecked Sendable: `encoder` (a C codec context, not Sendable) is used only on the lane's encode thread
final class RenditionLane: @unchecked Sendable {
    let name: String
    let encoder: any VideoEncoding
    let queue: BoundedQueue<VideoFrame>
    let runners: [SinkRunner]
    private let lock = NSLock()
    private var decimator: FrameDecimator
    private var keyFrameRequested = false

    init(name: String, encoder: any VideoEncoding, runners: [SinkRunner], queueCapacity: Int) {
        self.name = name
        self.encoder = encoder
        self.runners = runners
        queue = BoundedQueue(capacity: queueCapacity)
        decimator = FrameDecimator(rate: encoder.settings.expectedFrameRate)
    }

    /// Whether the captured frame stamped `time` feeds this encode.
    func takes(_ time: Double) -> Bool { lock.withLock { decimator.take(time) } }

    /// Makes the lane's next frame a keyframe.
    func requestKeyFrame() { lock.withLock { keyFrameRequested = true } }

    /// Whether a keyframe was asked for since the last call.
    func takeKeyFrameRequest() -> Bool {
        lock.withLock {
            defer { keyFrameRequested = false }
            return keyFrameRequested
        }
    }

    /// Hands packets to every sink of the lane.
    func deliver(_ packets: [EncodedPacket]) {
        for packet in packets {
            for runner in runners { runner.enqueue(packet) }
        }
    }
}

extension LiveSession {
    /// Adds a further video encode of the capture, named `name` (for keyframe requests), made by
    /// `encoder` at its settings' size and frame rate (frames taken at that rate; each scaled by the
    /// encoder) into `sinks`, which also get the session's audio packets. The sinks are written like
    /// files (the encode waits for them; serving sinks never block). Call before `start()`.
    package func addRendition(name: String, encoder: any VideoEncoding, sinks: [any PacketSink]) {
        let runners = sinks.map {
            SinkRunner(sink: $0, capacity: configuration.sinkQueueCapacity, dropWhenFull: false, failed: failureReporter($0))
        }
        let lane = RenditionLane(name: name, encoder: encoder, runners: runners, queueCapacity: configuration.videoQueueCapacity)
        for case let sink as any ReconnectingSink in sinks {
            sink.setKeyFrameRequester { [weak lane] in lane?.requestKeyFrame() }
        }
        lock.withLock { lanes.append(lane) }
    }

    /// Makes the next frame of the rendition `name` a keyframe (a WebRTC viewer's PLI, a join).
    package func forceKeyFrame(rendition name: String) {
        for lane in lock.withLock({ lanes }) where lane.name == name { lane.requestKeyFrame() }
    }

    /// The further encodes' names and the summaries of their encoders.
    package var renditionSummaries: [(name: String, encoder: String)] {
        lock.withLock { lanes }.map { ($0.name, $0.encoder.summary) }
    }

    func runLane(_ lane: RenditionLane) {
        let settings = lane.encoder.settings
        var schedule = KeyFrameSchedule(interval: settings.maxKeyFrameIntervalDuration, frameRate: settings.expectedFrameRate)
        var failed = false
        while let frame = lane.queue.pop() {
            guard !failed else { continue }
            let force = lane.takeKeyFrameRequest() || schedule.isDue(at: frame.pts.seconds)
            do {
                let packets = try lane.encoder.encode(frame, forceKeyFrame: force)
                if packets.contains(where: { $0.mediaType == .video && $0.isKeyframe }) { schedule.keyFrameMade(at: frame.pts.seconds) }
                lane.deliver(packets)
            } catch {
                record(error)
                failed = true
            }
        }
        if !failed {
            do { lane.deliver(try lane.encoder.flush()) } catch { record(error) }
        }
    }
}
