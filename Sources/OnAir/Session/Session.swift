import Foundation
import OnAirCore
import OnAirLive

/// A live session made by `SessionBuilder`: capture, one encode, every output, and (when
/// serving) the viewers, with the run loop, its stop conditions and failure reporting.
///
/// Run it with `run()` (async; cancelling the task stops it cleanly, every file finished), or
/// with `start()` and `stop()` from code that is not async. Events (statistics once a second,
/// outputs that failed, connections, bitrate changes, viewers) go to the builder's handler and to
/// every `events()` stream.
public final class Session: @unchecked Sendable {
    /// What the session was built from (with the encoder settings as opened).
    public let settings: SessionSettings
    /// Which encoder runs the video and why.
    public var videoEncoderSummary: String? { live.videoEncoderSummary }
    /// Where viewers connect, when serving.
    public let servedEndpoints: ServedEndpoints?
    /// `http://127.0.0.1:PORT/NAME.m3u8` when the HLS output's directory is served.
    public let hlsServerURL: String?
    /// Network outputs that wait for their receiver to connect (listener URLs), for messages.
    public let waitingForReceivers: [String]

    private let live: LiveSession
    private let fileOutputs: [String]
    private let fanOut: SessionEventFanOut
    private let teardown: @Sendable () -> Void
    private let viewerTotals: (@Sendable () -> ViewerTotals)?
    /// Sets the serving limits of a reload (max viewers, viewer timeout); nil when not serving.
    var servingLimits: (@Sendable (Int, Double) -> Void)?
    /// Puts a reload's tokens in force and cuts the viewers of removed ones; nil when not serving.
    var servingTokens: (@Sendable ([String]) -> TokenReload)?
    private let lock = NSLock()
    private let wake = DispatchSemaphore(value: 0)
    private var stopRequest: StopReason?
    private var started = false
    private var outcome: SessionOutcome?
    private var latest: LiveStatistics?

    init(
        settings: SessionSettings, live: LiveSession, fileOutputs: [String], fanOut: SessionEventFanOut,
        servedEndpoints: ServedEndpoints?, hlsServerURL: String?, waitingForReceivers: [String],
        viewerTotals: (@Sendable () -> ViewerTotals)?, teardown: @escaping @Sendable () -> Void
    ) {
        self.settings = settings
        self.live = live
        self.fileOutputs = fileOutputs
        self.fanOut = fanOut
        self.servedEndpoints = servedEndpoints
        self.hlsServerURL = hlsServerURL
        self.waitingForReceivers = waitingForReceivers
        self.viewerTotals = viewerTotals
        self.teardown = teardown
    }

    deinit { teardown() }

    /// Applies a reload's serving limits without touching viewers: the most viewers at once
    /// (admission from now on) and the viewer timeout (viewers from now on). False when not serving.
    @discardableResult
    public func reloadServing(maxViewers: Int, viewerTimeout: Double) -> Bool {
        guard let servingLimits else { return false }
        servingLimits(maxViewers, viewerTimeout)
        return true
    }

    /// What a reload of the tokens did.
    public struct TokenReload: Sendable, Equatable {
        /// Viewers cut, on every face, because the token that admitted them was removed.
        public var cut: Int
        /// Those of SRT and RTSP, whose passphrase and password (the first token at start) stay
        /// until a restart, that admit no one any more: that token was removed.
        public var lockedFaces: [String]
    }

    /// Applies a reload's token list: requests from now on need one of `tokens` (none: open), and
    /// every viewer admitted by a token not in it is cut; the others keep playing. Nil when not serving.
    @discardableResult
    public func reloadTokens(_ tokens: [String]) -> TokenReload? {
        servingTokens?(tokens)
    }

    /// Applies a reload's video bit rate and data-rate limits before the next frame, without a new
    /// encoder (see `LiveSession.setBitRate`).
    public func reloadBitRate(average: Int, dataRateLimits: [DataRateLimit]) {
        live.setBitRate(average: average, dataRateLimits: dataRateLimits)
    }

    /// The session's events from now on, until it stops: one sequence per call, each with its own
    /// queue, in which failures, connection and viewer changes are never dropped and statistics
    /// are coalesced to the newest (see `SessionEventStream`).
    public func events() -> SessionEventStream { fanOut.stream() }

    /// The latest once-a-second statistics (nil before the first second).
    public var latestStatistics: LiveStatistics? {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    /// Starts sinks, encoders and sources. A source that cannot open leaves no empty output
    /// files behind: they are removed and the error is thrown.
    public func start() throws {
        lock.lock()
        let already = started
        started = true
        lock.unlock()
        guard !already else { return }
        do {
            try live.start()
        } catch {
            for output in fileOutputs { try? FileManager.default.removeItem(atPath: output) }
            teardown()
            fanOut.finish()
            throw error
        }
    }

    /// Asks a running `run` to stop (as `reason`) at its next check, within a tenth of a second.
    public func requestStop(_ reason: StopReason = .cancelled) {
        lock.lock()
        if stopRequest == nil { stopRequest = reason }
        lock.unlock()
        wake.signal()
    }

    /// Stops capture, encodes what is queued, finishes every output and returns the outcome.
    /// Throws the first error a source or encoder hit; outputs that failed while others
    /// completed are in the outcome (`check()` throws them).
    public func stop(reason: StopReason = .cancelled) throws -> SessionOutcome {
        lock.lock()
        if let outcome {
            lock.unlock()
            return outcome
        }
        lock.unlock()
        var failedOutputs: [OutputFailure] = []
        var stopError: (any Error)?
        do {
            try live.stop()
        } catch let error as OutputsFailedError where reason != .failed {
            failedOutputs = error.failures
        } catch {
            stopError = error
        }
        let totals = viewerTotals?()
        teardown()
        let last = live.statistics()
        let result = SessionOutcome(reason: reason, statistics: last, failedOutputs: failedOutputs, viewers: totals)
        lock.lock()
        outcome = result
        lock.unlock()
        fanOut.finish()
        if let stopError { throw stopError }
        return result
    }

    /// Starts (if not started), runs until the duration is reached, the sources end, an error
    /// stops it, `requestStop` is called or `shouldStop` returns a reason (checked ten times a
    /// second), then stops. Sends `.statistics` once a second.
    public func runBlocking(until shouldStop: () -> StopReason? = { nil }) throws -> SessionOutcome {
        try start()
        var reason = settings.duration != nil ? StopReason.durationReached : .sourcesEnded
        var nextSecond = ProcessInfo.processInfo.systemUptime + 1
        loop: while true {
            if live.waitForSources(timeout: 0.1) { break }
            let now = ProcessInfo.processInfo.systemUptime
            if now >= nextSecond {
                nextSecond += 1
                if nextSecond < now { nextSecond = now + 1 }
                let statistics = live.statistics()
                lock.lock()
                latest = statistics
                lock.unlock()
                fanOut.send(.statistics(statistics))
            }
            lock.lock()
            let requested = stopRequest
            lock.unlock()
            if let requested {
                reason = requested
                break loop
            }
            if let asked = shouldStop() {
                reason = asked
                break loop
            }
            if live.error != nil {
                reason = .failed
                break loop
            }
        }
        return try stop(reason: reason)
    }

    /// Runs the session on its own thread until it stops by itself or the calling task is
    /// cancelled; cancellation stops it cleanly (every file finished) and returns the outcome
    /// with `reason == .cancelled`.
    public func run() async throws -> SessionOutcome {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SessionOutcome, any Error>) in
                let thread = Thread { [self] in
                    continuation.resume(with: Result { try runBlocking() })
                }
                thread.name = "onair.session"
                thread.start()
            }
        } onCancel: {
            requestStop(.cancelled)
        }
    }

    /// Makes the next encoded video frame an IDR.
    public func forceKeyFrame() { live.forceKeyFrame() }

    /// Changes the video bitrate live (clamped to the stream's level, with a notice).
    public func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) {
        live.setBitRate(average: average, dataRateLimits: dataRateLimits)
    }

    /// Outputs that have failed so far; the others carry on.
    public var failedOutputs: [OutputFailure] { live.outputFailures }
}
