import Foundation
import OnAirCore

/// Connects capture sources to the H.264 and AAC encoders and the encoders to every sink.
///
/// Each stage has its own thread and a bounded queue in front of it (see ../shared/DESIGN.md):
/// sources deliver on their own threads; when video encoding falls behind, the oldest waiting
/// frame is dropped and counted (in real time) instead of queueing without bound; audio is never
/// dropped; each sink writes on its own thread. One encode feeds all sinks. Timestamps are the
/// sources' capture-clock times.
public final class LiveSession: @unchecked Sendable {
    /// How the session runs.
    public struct Configuration: Sendable {
        /// Video encoder settings, or nil for no video.
        public var video: VideoEncoderSettings?
        /// Audio encoder settings, or nil for no audio.
        public var audio: AudioEncoderSettings?
        /// Drop late video frames (real time) or make the source wait (as fast as possible).
        public var dropLateVideo = true
        /// Frames that may wait for the video encoder before the oldest is dropped.
        public var videoQueueCapacity = 4
        /// Audio buffers that may wait for the audio encoder (the source waits beyond this).
        public var audioQueueCapacity = 512
        /// Packets that may wait for each sink.
        public var sinkQueueCapacity = 4096
        /// Seconds of media that may wait for a network output before it skips to a fresh
        /// keyframe, dropping the rest (the viewer sees a jump, the delay stays bounded); nil: no
        /// bound (nothing skipped, the delay grows while the link is too slow). Files are never cut.
        public var maximumNetworkBacklog: Double? = 2
        /// Stop capturing at this much media time (seconds), or run until `stop()`.
        public var duration: Double?
        /// Adapt the video bitrate to what the network outputs carry, or nil for a fixed bitrate.
        public var adaptiveBitRate: AdaptiveBitrateSettings?

        /// The settings the video encoder opens with: `video`, or with adaptive bitrate `video` at
        /// the highest adaptive rate (data-rate limits scaled with it), so the encoder's level
        /// allows every rate the controller may choose. The session then sets `video`'s own rate
        /// before the first frame. Hand these to `EncoderFactory` when making the encoder yourself.
        public var openingVideo: VideoEncoderSettings? {
            guard let video, let adaptiveBitRate, adaptiveBitRate.maximumBitRate > video.averageBitRate else { return video }
            return video.withAverageBitRate(adaptiveBitRate.maximumBitRate)
        }

        /// Creates a configuration.
        public init(video: VideoEncoderSettings?, audio: AudioEncoderSettings?) {
            self.video = video
            self.audio = audio
        }
    }

    public let configuration: Configuration
    /// The capture timeline shared by every source; it starts at zero when `start()` starts the sources.
    public var clock: CaptureClock {
        lock.lock()
        defer { lock.unlock() }
        return captureClock
    }
    /// Under `lock`: replaced by `start()`, read by `statistics()` from any thread.
    private var captureClock = CaptureClock()
    private let sources: [any CaptureSource]
    private let runners: [SinkRunner]
    private let networkRunners: [SinkRunner]
    private var adaptive: AdaptiveBitrateLoop?
    private let videoEncoder: (any VideoEncoding)?
    private let audioEncoder: (any AudioEncoding)?
    private let videoQueue: BoundedQueue<VideoFrame>
    private let audioQueue: BoundedQueue<PCMBuffer>
    private let encodersDone = DispatchGroup()
    private let sourcesDone = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: (any Error)?
    private var pendingKeyFrame = false
    private var pendingBitRate: (average: Int, limits: [DataRateLimit])?
    private var activeSources = 0
    private var videoReachedEnd = false, audioReachedEnd = false
    private var counters = Counters()
    private var lastSnapshot: (time: Double, counters: Counters)?
    private var stopped = false
    private var firstMediaTime: Double?
    /// Hears live controls that were clamped or refused.
    private let notices: (@Sendable (String) -> Void)?

    /// Running totals, under `lock`.
    private struct Counters {
        var framesIn = 0, framesOut = 0, audioIn = 0, audioOut = 0
        var videoBytes = 0, audioBytes = 0
        var encodeSeconds = 0.0, encodedFrames = 0
        var skippedAtSource = 0
    }
    /// Per-frame encode times since the start, every frame and keyframes alone (bounded memory;
    /// under `lock`, kept apart from `counters`, which are copied once a second).
    private var encodeLatency = LatencyStatistics(), keyFrameEncodeLatency = LatencyStatistics()

    /// Sets up a session; encoders are created (and settings validated) here, before anything runs.
    ///
    /// `networkSinks` are sinks that drop their oldest packets rather than make the encoders wait.
    /// With `configuration.adaptiveBitRate`, each bitrate change is also reported to `bitRateDecisions`
    /// (on the controller's thread). An output that fails (disk full, I/O error, closed pipe) is
    /// reported to `outputFailed` at once, on its own thread, and left behind; the others carry on.
    public init(
        configuration: Configuration, sources: [any CaptureSource], sinks: [any PacketSink],
        networkSinks: [any PacketSink] = [],
        videoEncoder: (any VideoEncoding)? = nil, audioEncoder: (any AudioEncoding)? = nil,
        bitRateDecisions: (@Sendable (BitrateDecision) -> Void)? = nil,
        outputFailed: (@Sendable (OutputFailure) -> Void)? = nil,
        notices: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.notices = notices
        self.sources = sources
        if let settings = configuration.openingVideo {
            self.videoEncoder = try videoEncoder ?? EncoderFactory.videoEncoder(settings: settings)
        } else {
            self.videoEncoder = nil
        }
        if let settings = configuration.audio {
            self.audioEncoder = try audioEncoder ?? EncoderFactory.audioEncoder(settings: settings)
        } else {
            self.audioEncoder = nil
        }
        func report(_ sink: any PacketSink) -> (@Sendable (any Error) -> Void)? {
            guard let outputFailed else { return nil }
            let destination = sink.destination
            return { error in outputFailed(OutputFailure(destination: destination, error: error)) }
        }
        networkRunners = networkSinks.map {
            SinkRunner(
                sink: $0, capacity: configuration.sinkQueueCapacity, dropWhenFull: true,
                maximumBacklog: configuration.maximumNetworkBacklog, failed: report($0))
        }
        runners =
            sinks.map {
                SinkRunner(sink: $0, capacity: configuration.sinkQueueCapacity, dropWhenFull: false, failed: report($0))
            } + networkRunners
        videoQueue = BoundedQueue(capacity: configuration.videoQueueCapacity)
        audioQueue = BoundedQueue(capacity: configuration.audioQueueCapacity)
        // A sink that reconnects asks for an IDR so its new connection starts at once.
        for case let sink as any ReconnectingSink in sinks + networkSinks {
            sink.setKeyFrameRequester { [weak self] in self?.forceKeyFrame() }
        }
        // An encoder opened at the highest adaptive rate starts at the configured one.
        if let video = configuration.video, let opened = configuration.openingVideo, opened.averageBitRate != video.averageBitRate {
            pendingBitRate = (video.averageBitRate, video.dataRateLimits)
        }
        if let settings = configuration.adaptiveBitRate, let video = configuration.video, !networkRunners.isEmpty {
            adaptive = AdaptiveBitrateLoop(
                settings: settings,
                measure: { [weak self] in self?.linkMeasurements() ?? [] },
                apply: { [weak self] rate in
                    self?.setBitRate(
                        average: rate, dataRateLimits: settings.dataRateLimits(video.dataRateLimits(scaledTo: rate), bitRate: rate))
                    self?.pace(streamBitRate: rate + settings.audioBitRate)
                },
                events: bitRateDecisions,
                cut: { [weak self] links in
                    // With no backlog bound (--max-backlog 0) nothing is ever cut.
                    guard let self, configuration.maximumNetworkBacklog != nil else { return }
                    for link in links where link < networkRunners.count { networkRunners[link].requestSkip() }
                })
            pace(streamBitRate: video.averageBitRate + settings.audioBitRate)
        }
    }

    /// Tells the network outputs the stream's planned rate, for transports that pace their
    /// sending to it (SRT); a transport that refuses is reported, and sends unpaced.
    private func pace(streamBitRate: Int) {
        for runner in networkRunners {
            guard let sink = runner.sink as? any ReconnectingSink else { continue }
            do { try sink.setPacingRate(bitsPerSecond: streamBitRate) } catch {
                notices?("\(sink.destination): pacing to \(streamBitRate / 1000) kb/s failed: \(error)")
            }
        }
    }

    /// One reading per network output: bytes sent, the backlog waiting for it, and whether it is connected.
    public func linkMeasurements() -> [(link: Int, measurement: LinkMeasurement)] {
        let now = ProcessInfo.processInfo.systemUptime
        return networkRunners.enumerated().map { index, runner in
            let backlog = runner.backlog
            let sink = runner.sink as? any ReconnectingSink
            let connection = sink?.connectionStatistics
            return (
                index,
                LinkMeasurement(
                    time: now, bytesSent: connection?.bytesSent ?? backlog.written,
                    queuedSeconds: backlog.seconds, queuedBytes: backlog.bytes,
                    isConnected: connection?.isConnected ?? true,
                    transport: sink?.transportMeasurement)
            )
        }
    }

    /// Which encoder runs the video and why.
    public var videoEncoderSummary: String? { videoEncoder?.summary }

    /// Starts sinks, encoders and sources.
    public func start() throws {
        for runner in runners { runner.start() }
        if videoEncoder != nil { startThread("onair.encode.video") { [self] in runVideo(videoEncoder!) } }
        if audioEncoder != nil { startThread("onair.encode.audio") { [self] in runAudio(audioEncoder!) } }
        lock.lock()
        activeSources = sources.count
        lock.unlock()
        let clock = CaptureClock()
        lock.lock()
        captureClock = clock
        lock.unlock()
        adaptive?.start()
        let handlers = CaptureHandlers(
            video: { [self] frame in accept(frame) },
            audio: { [self] buffer in accept(buffer) },
            ended: { [self] error in sourceEnded(error) },
            skippedFrames: { [self] count in
                lock.lock()
                counters.skippedAtSource += count
                lock.unlock()
            })
        for source in sources {
            do {
                try source.start(clock: clock, handlers: handlers)
            } catch {
                record(error)
                try? stop()
                throw error
            }
        }
    }

    /// Waits until every source has ended by itself (end of file, `duration` reached) or `timeout`
    /// seconds pass; returns whether they ended.
    public func waitForSources(timeout: Double) -> Bool {
        sourcesDone.wait(timeout: .now() + timeout) == .success
    }

    /// The first error a source or an encoder hit, or `OutputsFailedError` once every output has
    /// failed; nil while the session can go on. The session keeps running; callers decide.
    /// (An output that fails while others work is in `outputFailures`, not here.)
    public var error: (any Error)? {
        lock.lock()
        let failure = self.failure
        lock.unlock()
        if let failure { return failure }
        let failures = outputFailures
        return !runners.isEmpty && failures.count == runners.count ? OutputsFailedError(failures: failures) : nil
    }

    /// The outputs that have failed so far; the others carry on.
    public var outputFailures: [OutputFailure] {
        runners.compactMap { runner in runner.error.map { OutputFailure(destination: runner.sink.destination, error: $0) } }
    }

    /// Stops capture, encodes what is queued, flushes the encoders and finishes every sink.
    /// Throws the first error a source or encoder hit, else `OutputsFailedError` naming every
    /// output that failed (the others are complete).
    public func stop() throws {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if !already {
            adaptive?.stop()
            for source in sources { source.stop() }
            videoQueue.close()
            audioQueue.close()
            encodersDone.wait()
            for runner in runners { runner.finish() }
        }
        if let error { throw error }
        let failures = outputFailures
        if !failures.isEmpty { throw OutputsFailedError(failures: failures) }
    }

    /// Makes the next encoded video frame an IDR.
    public func forceKeyFrame() {
        lock.lock()
        pendingKeyFrame = true
        lock.unlock()
    }

    /// Changes the video bitrate live (applied before the next frame, without a new encoder).
    /// A rate outside what the stream's level allows is clamped to it, and an invalid one refused;
    /// either way the `notices` handler says so and the stream goes on (`statistics().targetBitRate`
    /// shows the rate in force).
    public func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) {
        lock.lock()
        pendingBitRate = (average, dataRateLimits)
        lock.unlock()
    }

    /// Statistics since the previous call (rates) and since the start (totals).
    public func statistics() -> LiveStatistics {
        let now = clock.elapsed
        lock.lock()
        let current = counters
        let previous = lastSnapshot ?? (0, Counters())
        lastSnapshot = (now, current)
        let (latency, keyLatency) = (encodeLatency, keyFrameEncodeLatency)  // copied: sorted outside the lock
        lock.unlock()
        let interval = max(now - previous.time, 1e-3)
        var stats = LiveStatistics()
        stats.elapsed = now
        stats.framesIn = current.framesIn
        stats.framesOut = current.framesOut
        stats.fpsIn = Double(current.framesIn - previous.counters.framesIn) / interval
        stats.fpsOut = Double(current.framesOut - previous.counters.framesOut) / interval
        stats.droppedFrames = videoQueue.dropped + current.skippedAtSource
        stats.sourceSkippedFrames = current.skippedAtSource
        stats.audioBuffersIn = current.audioIn
        stats.audioFramesOut = current.audioOut
        stats.videoBitRate = Int(Double(8 * (current.videoBytes - previous.counters.videoBytes)) / interval)
        stats.audioBitRate = Int(Double(8 * (current.audioBytes - previous.counters.audioBytes)) / interval)
        let frames = current.encodedFrames - previous.counters.encodedFrames
        stats.encodeLatencyMs = frames > 0 ? (current.encodeSeconds - previous.counters.encodeSeconds) / Double(frames) * 1000 : 0
        stats.encodeLatencyP50Ms = (latency.percentile(50) ?? 0) * 1000
        stats.encodeLatencyP99Ms = (latency.percentile(99) ?? 0) * 1000
        stats.keyFrameEncodeLatencyMs = (keyLatency.percentile(50) ?? 0) * 1000
        stats.videoQueue = videoQueue.depth
        stats.audioQueue = audioQueue.depth
        stats.sinkQueue = runners.map(\.queue.depth).max() ?? 0
        stats.sinkDroppedPackets = runners.map(\.queue.dropped).reduce(0, +)
        stats.residentBytes = ResidentMemory.current()
        stats.targetBitRate = configuration.video?.averageBitRate ?? 0
        if let applied = appliedBitRateSnapshot() { stats.targetBitRate = applied }
        for case let sink as any ReconnectingSink in runners.map(\.sink) {
            let connection = sink.connectionStatistics
            stats.networkConnected += connection.isConnected ? 1 : 0
            stats.reconnects += connection.reconnects
            stats.offlineSeconds += connection.offlineSeconds
            stats.networkDroppedPackets += connection.droppedPackets
            stats.backlogSkips += connection.backlogSkips
            stats.networkBytesSent += connection.bytesSent
        }
        // Everything between the encoder and the wire: OnAir's queue and the transport's buffer.
        stats.networkQueueSeconds = networkRunners.map { $0.backlog.seconds + $0.transportBacklog.seconds }.max() ?? 0
        stats.networkQueueBytes = networkRunners.map { $0.backlog.bytes + $0.transportBacklog.bytes }.max() ?? 0
        if let snapshot = adaptive?.snapshot {
            stats.bitRateChanges = snapshot.changes
            stats.lastBitRateDecision = snapshot.lastDecision?.summary
            stats.linkEstimate = snapshot.linkEstimate
            stats.queueingDelay = snapshot.worstQueueSeconds
        }
        return stats
    }

    /// The last bitrate applied with `setBitRate`, under `lock`.
    private var appliedBitRate: Int?

    private func appliedBitRateSnapshot() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return appliedBitRate
    }

    // MARK: - Sources → queues

    private func accept(_ frame: VideoFrame) {
        guard videoEncoder != nil else { return }
        if let end = endTime(startingAt: frame.pts), frame.pts.seconds >= end {
            reachedEnd(video: true)
            return
        }
        lock.lock()
        counters.framesIn += 1
        lock.unlock()
        videoQueue.push(frame, overflow: configuration.dropLateVideo ? .dropOldest : .wait)
    }

    private func accept(_ buffer: PCMBuffer) {
        guard audioEncoder != nil else { return }
        var buffer = buffer
        if let end = endTime(startingAt: buffer.pts) {
            let bufferEnd = buffer.pts.seconds + Double(buffer.frameCount) / Double(max(buffer.sampleRate, 1))
            if buffer.pts.seconds >= end {
                reachedEnd(video: false)
                return
            }
            if bufferEnd > end {
                buffer = buffer.prefix(frames: Int(((end - buffer.pts.seconds) * Double(buffer.sampleRate)).rounded()))
            }
        }
        lock.lock()
        counters.audioIn += 1
        lock.unlock()
        audioQueue.push(buffer, overflow: .wait)
    }

    /// When capture stops with a `duration`: that long after the first captured item of any
    /// stream (devices can take a while to open, so the clock's zero is not the start of media).
    private func endTime(startingAt time: MediaTime) -> Double? {
        guard let duration = configuration.duration else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if firstMediaTime == nil { firstMediaTime = time.seconds }
        return firstMediaTime! + duration
    }

    private func reachedEnd(video: Bool) {
        lock.lock()
        if video { videoReachedEnd = true } else { audioReachedEnd = true }
        let done =
            (videoReachedEnd || videoEncoder == nil || !sources.contains { $0.mediaTypes.contains(.video) })
            && (audioReachedEnd || audioEncoder == nil || !sources.contains { $0.mediaTypes.contains(.audio) })
        let signal = done && activeSources > 0
        if signal { activeSources = 0 }
        lock.unlock()
        if signal { sourcesDone.signal() }
    }

    private func sourceEnded(_ error: (any Error)?) {
        if let error { record(error) }
        lock.lock()
        activeSources -= 1
        let last = activeSources == 0
        lock.unlock()
        if last { sourcesDone.signal() }
    }

    // MARK: - Encoder threads

    private func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        encodersDone.startThread(named: name, stackSize: 4 << 20, body)
    }

    private func runVideo(_ encoder: any VideoEncoding) {
        var failed = false
        while let frame = videoQueue.pop() {
            guard !failed else { continue }
            lock.lock()
            let force = pendingKeyFrame
            pendingKeyFrame = false
            let bitRate = pendingBitRate
            pendingBitRate = nil
            lock.unlock()
            if let bitRate { applyBitRate(bitRate, to: encoder) }
            do {
                let start = ProcessInfo.processInfo.systemUptime
                let packets = try encoder.encode(frame, forceKeyFrame: force)
                let spent = ProcessInfo.processInfo.systemUptime - start
                let key = packets.contains { $0.mediaType == .video && $0.isKeyframe }
                lock.lock()
                counters.encodeSeconds += spent
                counters.encodedFrames += 1
                encodeLatency.add(spent)
                if key { keyFrameEncodeLatency.add(spent) }
                lock.unlock()
                deliver(packets)
            } catch {
                record(error)
                failed = true
            }
        }
        if !failed {
            do { deliver(try encoder.flush()) } catch { record(error) }
        }
    }

    /// Applies a live bitrate change; one that cannot be applied is reported, never fatal.
    private func applyBitRate(_ bitRate: (average: Int, limits: [DataRateLimit]), to encoder: any VideoEncoding) {
        do {
            try encoder.setBitRate(average: bitRate.average, dataRateLimits: bitRate.limits)
            let applied = encoder.settings.averageBitRate
            if applied != bitRate.average {
                notices?("bitrate \(bitRate.average) b/s is above what the stream's level allows: clamped to \(applied) b/s")
            }
            lock.lock()
            appliedBitRate = applied
            lock.unlock()
        } catch {
            notices?("bitrate change to \(bitRate.average) b/s refused (\(error)); staying at \(encoder.settings.averageBitRate) b/s")
        }
    }

    private func runAudio(_ encoder: any AudioEncoding) {
        var failed = false
        while let buffer = audioQueue.pop() {
            guard !failed else { continue }
            do { deliver(try encoder.encode(buffer)) } catch {
                record(error)
                failed = true
            }
        }
        if !failed {
            do { deliver(try encoder.flush()) } catch { record(error) }
        }
    }

    private func deliver(_ packets: [EncodedPacket]) {
        guard !packets.isEmpty else { return }
        lock.lock()
        for packet in packets {
            if packet.mediaType == .video {
                counters.framesOut += 1
                counters.videoBytes += packet.byteCount
            } else {
                counters.audioOut += 1
                counters.audioBytes += packet.byteCount
            }
        }
        lock.unlock()
        for packet in packets {
            for runner in runners { runner.enqueue(packet) }
        }
    }

    private func record(_ error: any Error) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }
}
