import Foundation
import OnAirCore

/// Connects capture sources to the H.264 and AAC encoders and the encoders to every sink.
///
/// Each stage has its own thread and a bounded queue in front of it (see ../shared/DESIGN.md):
/// sources deliver on their own threads; when video encoding falls behind, the oldest waiting
/// frame is dropped and counted (in real time) instead of queueing without bound; audio is never
/// dropped; each sink writes on its own thread. One encode feeds all sinks. Timestamps are the
/// sources' capture-clock times.
/// Unchecked Sendable: owns the encoders (C codec contexts, each used only on its stage thread); its vars are under `lock`
package final class LiveSession: @unchecked Sendable {
    /// How the session runs, as given.
    public let configuration: Configuration
    /// The capture timeline shared by every source; it starts at zero when `start()` starts the sources.
    public var clock: CaptureClock {
        lock.lock()
        defer { lock.unlock() }
        return captureClock
    }
    /// Under `lock`: replaced by `start()`, read by `statistics()` from any thread.
    private var captureClock = CaptureClock()
    /// The sources delivering now, under `lock` (`replaceSources` swaps them).
    private var sources: [any CaptureSource]
    /// Counts `replaceSources` calls, under `lock`: the end of a replaced source is not the end of capture.
    private var sourceGeneration = 0
    /// Held while sources are replaced and while `stop()` stops them, so neither sees half of the other.
    private let sourceSwap = NSLock()
    /// The capture time of the last video frame taken, and after a source swap the earliest the
    /// next may have (half a frame interval later), under `lock`.
    private var lastVideoTime: Double?, earliestVideoAfterSwap: Double?
    let runners: [SinkRunner]
    /// The further video encodes of the capture (`addRendition`), under `lock`; added before `start()`.
    var lanes: [RenditionLane] = []
    /// Every sink's runner: the main encode's and the further encodes'.
    var allRunners: [SinkRunner] { runners + lock.withLock { lanes }.flatMap(\.runners) }
    /// What looks at every captured video frame beside the encodes (`observeVideo`), under `lock`.
    private var videoObservers: [@Sendable (VideoFrame) -> Void] = []
    /// Reports a sink's failure (nil: nobody listens).
    let failureReporter: (any PacketSink) -> (@Sendable (any Error) -> Void)?
    let links: NetworkLinks
    var adaptive: AdaptiveBitrateLoop?
    let videoEncoder: (any VideoEncoding)?
    let audioEncoder: (any AudioEncoding)?
    let videoQueue: BoundedQueue<VideoFrame>
    let audioQueue: BoundedQueue<PCMBuffer>
    let encodersDone = DispatchGroup()
    private let sourcesDone = DispatchSemaphore(value: 0)
    let lock = NSLock()
    private var failure: (any Error)?
    var pendingKeyFrame = false
    /// Whether the outputs' start owes a keyframe (the audio began after the first one), under `lock`.
    var startingKeyFrame = StartingKeyFrame(audioAndVideo: false)
    var pendingBitRate: (average: Int, limits: [DataRateLimit])?
    /// A video encoder to take over at the next frame (`replaceVideoEncoder`), under `lock`.
    var pendingVideoEncoder: (any VideoEncoding)?
    /// The video encoder running now (the first, or the last that took over), under `lock`.
    var runningVideoEncoder: (any VideoEncoding)?
    private var activeSources = 0
    private var videoReachedEnd = false, audioReachedEnd = false
    var counters = Counters()
    /// The last bitrate applied with `setBitRate`, under `lock`.
    var appliedBitRate: Int?
    var lastSnapshot: (time: Double, counters: Counters)?
    private var stopped = false
    private var sourcesHaveEnded = false
    private var attention: (@Sendable () -> Void)?
    private var firstMediaTime: Double?
    /// Hears live controls that were clamped or refused.
    let notices: (@Sendable (String) -> Void)?

    /// Running totals, under `lock`.
    struct Counters {
        var framesIn = 0, framesOut = 0, audioIn = 0, audioOut = 0
        var videoBytes = 0, audioBytes = 0
        var encodeSeconds = 0.0, encodedFrames = 0
        var skippedAtSource = 0
        var keyFramesForced = 0
    }
    /// Per-frame encode times since the start, every frame and keyframes alone (bounded memory;
    /// under `lock`, kept apart from `counters`, which are copied once a second).
    var encodeLatency = LatencyStatistics(), keyFrameEncodeLatency = LatencyStatistics()

    /// Sets up a session around the encoders it runs (one for each of `configuration`'s video and
    /// audio settings; the `OnAir` module's initializer without them opens this platform's own).
    ///
    /// `networkSinks` are sinks that drop their oldest packets rather than make the encoders wait.
    /// With `configuration.adaptiveBitRate`, each bitrate change is also reported to `bitRateDecisions`
    /// (on the controller's thread). An output that fails (disk full, I/O error, closed pipe) is
    /// reported to `outputFailed` at once, on its own thread, and left behind; the others carry on.
    public init(
        configuration: Configuration, sources: [any CaptureSource], sinks: [any PacketSink],
        networkSinks: [any PacketSink] = [],
        videoEncoder: (any VideoEncoding)?, audioEncoder: (any AudioEncoding)?,
        bitRateDecisions: (@Sendable (BitrateDecision) -> Void)? = nil,
        outputFailed: (@Sendable (OutputFailure) -> Void)? = nil,
        notices: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.configuration = configuration
        self.notices = notices
        self.sources = sources
        if configuration.openingVideo != nil, videoEncoder == nil {
            throw SettingsError(field: "videoEncoder", value: "none", allowed: "an encoder for the video settings")
        }
        if configuration.audio != nil, audioEncoder == nil {
            throw SettingsError(field: "audioEncoder", value: "none", allowed: "an encoder for the audio settings")
        }
        self.videoEncoder = configuration.openingVideo == nil ? nil : videoEncoder
        runningVideoEncoder = self.videoEncoder
        self.audioEncoder = configuration.audio == nil ? nil : audioEncoder
        startingKeyFrame = StartingKeyFrame(
            audioAndVideo: configuration.keyFrameWhenSoundStarts && self.videoEncoder != nil && self.audioEncoder != nil)
        let report = { (sink: any PacketSink) -> (@Sendable (any Error) -> Void)? in
            guard let outputFailed else { return nil }
            let destination = sink.destination
            return { error in outputFailed(OutputFailure(destination: destination, error: error)) }
        }
        failureReporter = report
        links = NetworkLinks(
            sinks: networkSinks, capacity: configuration.sinkQueueCapacity,
            maximumBacklog: configuration.maximumNetworkBacklog, failed: report)
        runners =
            sinks.map {
                SinkRunner(sink: $0, capacity: configuration.sinkQueueCapacity, dropWhenFull: false, failed: report($0))
            } + links.runners
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
        if let settings = configuration.adaptiveBitRate, let video = configuration.video, !links.isEmpty {
            adaptive = AdaptiveBitrateLoop(
                settings: settings,
                measure: { [weak self] in self?.linkMeasurements() ?? [] },
                apply: { [weak self] rate in
                    self?.setBitRate(
                        average: rate, dataRateLimits: settings.dataRateLimits(video.dataRateLimits(scaledTo: rate), bitRate: rate))
                    self?.links.pace(streamBitRate: rate + settings.audioBitRate, notices: notices)
                },
                events: bitRateDecisions,
                cut: { [weak self] links in
                    // With no backlog bound (--max-backlog 0) nothing is ever cut.
                    guard let self, configuration.maximumNetworkBacklog != nil else { return }
                    self.links.requestSkip(links: links)
                })
            links.pace(streamBitRate: video.averageBitRate + settings.audioBitRate, notices: notices)
        }
    }

    /// One reading per network output: bytes sent, the backlog waiting for it, and whether it is connected.
    package func linkMeasurements() -> [(link: Int, measurement: LinkMeasurement)] {
        links.measurements()
    }

    /// Which encoder runs the video and why.
    public var videoEncoderSummary: String? { lock.withLock { runningVideoEncoder }?.summary }

    /// The settings of the video encoder running now (nil without video).
    public var currentVideoSettings: VideoEncoderSettings? {
        lock.lock()
        defer { lock.unlock() }
        return runningVideoEncoder?.settings
    }

    /// Restarts the video encode with `encoder` (a reload changed its size, frame rate or codec
    /// settings): before the next frame the running encoder is flushed (its last packets go out
    /// first) and `encoder` takes over, starting with a keyframe that carries its parameter sets;
    /// timestamps go on from the capture clock. The sinks see one stream whose parameters change
    /// at that keyframe. Frames already captured at another size are scaled by the new encoder.
    public func replaceVideoEncoder(_ encoder: any VideoEncoding) {
        lock.lock()
        pendingVideoEncoder = encoder
        lock.unlock()
    }

    /// Starts sinks, encoders and sources.
    public func start() throws {
        for runner in allRunners { runner.start() }
        links.start()
        if videoEncoder != nil { startThread("onair.encode.video") { [self] in runVideo(videoEncoder!) } }
        for lane in lock.withLock({ lanes }) { startThread("onair.encode.\(lane.name)") { [self] in runLane(lane) } }
        if audioEncoder != nil { startThread("onair.encode.audio") { [self] in runAudio(audioEncoder!) } }
        let clock = CaptureClock(timelineStart: configuration.timelineStart)
        lock.lock()
        activeSources = sources.count
        captureClock = clock
        let sources = self.sources
        lock.unlock()
        adaptive?.start()
        let handlers = handlers(generation: 0)
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

    private func handlers(generation: Int) -> CaptureHandlers {
        CaptureHandlers(
            video: { [self] frame in accept(frame) },
            audio: { [self] buffer in accept(buffer) },
            ended: { [self] error in sourceEnded(error, generation: generation) },
            skippedFrames: { [self] count in
                lock.lock()
                counters.skippedAtSource += count
                lock.unlock()
            })
    }

    /// Replaces the running sources with `new` (a reload changed what or how to capture): the old
    /// ones stop (their end is not the end of capture), then the new ones start on the same capture
    /// clock, so timestamps go on. When one of `new` cannot start, the old ones start again and the
    /// error is thrown (if they cannot either, the session has failed). Call after `start()`.
    public func replaceSources(_ new: [any CaptureSource]) throws {
        sourceSwap.lock()
        defer { sourceSwap.unlock() }
        lock.lock()
        guard !stopped, !sourcesHaveEnded else {
            lock.unlock()
            return
        }
        let old = sources
        let clock = captureClock
        sourceGeneration += 1  // the old sources' end, as they stop, is not the end of capture
        lock.unlock()
        for source in old { source.stop() }
        lock.withLock {
            let rate = pendingVideoEncoder?.settings.expectedFrameRate ?? runningVideoEncoder?.settings.expectedFrameRate ?? 30
            earliestVideoAfterSwap = lastVideoTime.map { $0 + 0.5 / max(rate, 1) }
        }
        do {
            try start(new, clock: clock)
        } catch {
            do { try start(old, clock: clock) } catch { record(error) }
            throw error
        }
    }

    /// Starts `sources` as the session's own (a new generation); on failure stops those started.
    private func start(_ sources: [any CaptureSource], clock: CaptureClock) throws {
        lock.lock()
        sourceGeneration += 1
        let generation = sourceGeneration
        self.sources = sources
        activeSources = sources.count
        lock.unlock()
        let handlers = handlers(generation: generation)
        for (index, source) in sources.enumerated() {
            do {
                try source.start(clock: clock, handlers: handlers)
            } catch {
                lock.withLock { sourceGeneration += 1 }  // their end, as they stop, is not the end of capture
                for started in sources.prefix(index) { started.stop() }
                throw error
            }
        }
    }

    /// Waits until every source has ended by itself (end of file, `duration` reached) or `timeout`
    /// seconds pass; returns whether they ended.
    public func waitForSources(timeout: Double) -> Bool {
        sourcesDone.wait(timeout: .now() + timeout) == .success
    }

    /// Whether every source has ended by itself (end of file, `duration` reached); unlike
    /// `waitForSources`, reading it does not consume the end.
    public var sourcesEnded: Bool {
        lock.lock()
        defer { lock.unlock() }
        return sourcesHaveEnded
    }

    /// Calls `wake` (on the thread it happened on; keep it short) whenever the sources end or a
    /// source or encoder hits an error, so a caller can wait for either without polling. One
    /// handler; a second call replaces the first.
    public func whenAttentionNeeded(_ wake: @escaping @Sendable () -> Void) {
        lock.lock()
        attention = wake
        lock.unlock()
    }

    private func callAttention() {
        lock.lock()
        let wake = attention
        lock.unlock()
        wake?()
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
        let count = allRunners.count
        return count > 0 && failures.count == count ? OutputsFailedError(failures: failures) : nil
    }

    /// The outputs that have failed so far; the others carry on.
    public var outputFailures: [OutputFailure] {
        allRunners.compactMap { runner in runner.error.map { OutputFailure(destination: runner.sink.destination, error: $0) } }
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
            sourceSwap.withLock {
                for source in lock.withLock({ sources }) { source.stop() }
            }
            videoQueue.close()
            for lane in lock.withLock({ lanes }) { lane.queue.close() }
            audioQueue.close()
            encodersDone.wait()
            for runner in allRunners { runner.finish() }
            links.stop()
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
    public func setBitRate(average: Int, dataRateLimits: [VideoEncoderSettings.DataRateLimit]) {
        lock.lock()
        pendingBitRate = (average, dataRateLimits)
        lock.unlock()
    }

    // MARK: - Sources → queues

    private func accept(_ frame: VideoFrame) {
        guard videoEncoder != nil else { return }
        if let end = endTime(startingAt: frame.pts), frame.pts.seconds >= end {
            reachedEnd(video: true)
            return
        }
        lock.lock()
        // A replaced source's successor may capture its first frame within the last one's slot.
        if let earliest = earliestVideoAfterSwap {
            guard frame.pts.seconds >= earliest else {
                counters.skippedAtSource += 1
                lock.unlock()
                return
            }
            earliestVideoAfterSwap = nil
        }
        lastVideoTime = frame.pts.seconds
        counters.framesIn += 1
        let lanes = self.lanes
        let observers = videoObservers
        lock.unlock()
        for observe in observers { observe(frame) }
        let overflow: BoundedQueue<VideoFrame>.OverflowPolicy = configuration.dropLateVideo ? .dropOldest : .wait
        videoQueue.push(frame, overflow: overflow)
        // The further encodes take the same frame (shared, not copied) at their own rates.
        for lane in lanes where lane.takes(frame.pts.seconds) { lane.queue.push(frame, overflow: overflow) }
    }

    /// Hands every captured video frame the session takes to `observer` too, on the capture's
    /// thread before the frame is queued for the encodes (the motion detector): it must return at
    /// once and never keep the frame's buffers. Call before `start()`.
    package func observeVideo(_ observer: @escaping @Sendable (VideoFrame) -> Void) {
        lock.withLock { videoObservers.append(observer) }
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
        if signal {
            activeSources = 0
            sourcesHaveEnded = true
        }
        lock.unlock()
        if signal {
            sourcesDone.signal()
            callAttention()
        }
    }

    private func sourceEnded(_ error: (any Error)?, generation: Int) {
        lock.lock()
        guard generation == sourceGeneration else {
            lock.unlock()
            return  // a replaced source, stopped on purpose
        }
        lock.unlock()
        if let error { record(error) }
        lock.lock()
        activeSources -= 1
        let last = activeSources == 0
        if last { sourcesHaveEnded = true }
        lock.unlock()
        if last {
            sourcesDone.signal()
            callAttention()
        }
    }

    func record(_ error: any Error) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
        callAttention()
    }
}
