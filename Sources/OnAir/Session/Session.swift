import Foundation
import OnAirCore
import OnAirLive

#if canImport(OnAirServing)
import OnAirServing
#endif

/// A live session made by `SessionBuilder`: capture, one encode, every output, and (when
/// serving) the viewers, with the run loop, its stop conditions and failure reporting.
///
/// Run it with `run()` (async; cancelling the task stops it cleanly, every file finished), or
/// with `start()` and `stop()` from code that is not async. Events (statistics once a second,
/// outputs that failed, connections, bitrate changes, viewers, the stop) go to the builder's
/// handler and to every `events()` stream.
public final class Session: Sendable {
    /// What the session was built from (with the encoder settings as opened).
    public let settings: SessionSettings
    /// Which encoder runs the video and why.
    public var videoEncoderSummary: String? { live.videoEncoderSummary }
    /// Where viewers connect, when serving.
    public let servedEndpoints: ServedEndpoints?
    /// `http://127.0.0.1:PORT/NAME.m3u8` when the HLS output's directory is served.
    public let hlsServerURL: String?
    /// Network outputs that wait for their receiver to connect (listener URLs), for messages; an SRT
    /// listener is bound already and named with its port (the one the system picked for port 0).
    public let waitingForReceivers: [String]

    private let live: LiveSession
    private let fileOutputs: [String]
    private let fanOut: SessionEventFanOut
    private let teardown: @Sendable () -> Void
    private let viewerTotals: (@Sendable () -> ViewerTotals)?
    /// What a reload calls, set by the builder once the session exists.
    private struct ReloadHooks {
        var servingLimits: (@Sendable (Int, Duration) -> Void)?
        var recordingReload: (@Sendable (RecordingSettings) -> Bool)?
        #if canImport(OnAirServing)
        var servingCredentials: (@Sendable ([String]?, [ServeUser]?) -> TokenReload)?
        #endif
        var sourceMaker: (@Sendable (SessionSettings) throws -> [any CaptureSource])?
    }
    private let hooks = Locked(ReloadHooks())
    /// Sets the serving limits of a reload (max viewers, viewer timeout); nil when not serving.
    var servingLimits: (@Sendable (Int, Duration) -> Void)? {
        get { hooks.withLock { $0.servingLimits } }
        set { hooks.withLock { $0.servingLimits = newValue } }
    }
    /// Applies a reload's recording settings; nil when not recording.
    var recordingReload: (@Sendable (RecordingSettings) -> Bool)? {
        get { hooks.withLock { $0.recordingReload } }
        set { hooks.withLock { $0.recordingReload = newValue } }
    }
    #if canImport(OnAirServing)
    /// Puts a reload's tokens and users in force and cuts the viewers they no longer admit; nil when not serving.
    var servingCredentials: (@Sendable ([String]?, [ServeUser]?) -> TokenReload)? {
        get { hooks.withLock { $0.servingCredentials } }
        set { hooks.withLock { $0.servingCredentials = newValue } }
    }
    #endif
    /// Opens the sources settings name (a reload's capture restart); nil for an app's own sources.
    var sourceMaker: (@Sendable (SessionSettings) throws -> [any CaptureSource])? {
        get { hooks.withLock { $0.sourceMaker } }
        set { hooks.withLock { $0.sourceMaker = newValue } }
    }
    /// Signalled by a stop request, the sources' end, an error or a failed output, so the monitor
    /// acts at once; otherwise it wakes once a second for the statistics.
    private let wake = DispatchSemaphore(value: 0)
    /// Entered when the session starts (or stops unstarted), left once `result` is set.
    private let ended = DispatchGroup()
    private struct State {
        var phase = Phase.built
        var stopRequest: StopReason?
        var result: Result<SessionOutcome, any Error>?
        var waiters: [@Sendable (Result<SessionOutcome, any Error>) -> Void] = []
        var monitorThread: Thread?
        var latest: LiveStatistics?
    }
    private let state = Locked(State())

    private enum Phase { case built, running, finishing, ended }

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
        live.whenAttentionNeeded { [wake] in wake.signal() }
        fanOut.observe { [wake] event in
            if case .outputFailed = event { wake.signal() }
        }
    }

    /// A session is only freed unstarted or stopped (a running one is held by its monitor until it
    /// stops): this releases what building opened (servers), never finishes a file.
    deinit { teardown() }

    /// Applies a reload's serving limits without touching viewers: the most viewers at once
    /// (admission from now on) and the viewer timeout (viewers from now on). False when not serving.
    @discardableResult
    public func reloadServing(maxViewers: Int, viewerTimeout: Duration) -> Bool {
        guard let servingLimits else { return false }
        servingLimits(maxViewers, viewerTimeout)
        return true
    }

    /// Applies a reload's recording settings without a gap in the recording: retention (a pass
    /// runs at once), the segment and part durations (the segment under way is cut by the new
    /// length) and the segment-complete command. False when the session does not record, or when
    /// `settings` change the template, path name or format (those need a new session).
    @discardableResult
    public func reloadRecording(_ settings: RecordingSettings) -> Bool {
        recordingReload?(settings) ?? false
    }

    /// What a reload of the tokens or users did.
    public struct TokenReload: Sendable, Equatable {
        /// Viewers cut, on every face, because the token that admitted them was removed, or the
        /// user that admitted them was removed or lost its password or `read` permission.
        public var cut: Int
        /// The faces (SRT, RTSP) that admit no one now, each with what would open it again (e.g.
        /// RTSP started without a token cannot ask for one: `a restart (…)`).
        public var lockedFaces: [LockedFace]
    }

    /// A face that admits no one after a reload, and what would open it again.
    public struct LockedFace: Sendable, Equatable {
        /// `SRT` or `RTSP`.
        public var face: String
        /// What opens it again, to follow "until" in a sentence.
        public var until: String
    }

    /// Applies a reload's token list: requests from now on need one of `tokens` (none: open), and
    /// every viewer admitted by a token not in it is cut; the others keep playing. Nil when not serving.
    @discardableResult
    public func reloadTokens(_ tokens: [String]) -> TokenReload? {
        #if canImport(OnAirServing)
        servingCredentials?(tokens, nil)
        #else
        nil
        #endif
    }

    #if canImport(OnAirServing)
    /// Applies a reload's tokens and users (nil: unchanged): requests from now on need one of them,
    /// and every viewer admitted by a token no longer listed, or by a user removed, whose password
    /// changed or who lost `read`, is cut on every face; the others keep playing. Nil when not serving.
    @discardableResult
    public func reloadCredentials(tokens: [String]?, users: [ServeUser]?) -> TokenReload? {
        servingCredentials?(tokens, users)
    }
    #endif

    /// Restarts the video encode with `fresh`'s video encoder settings (a reload changed the picture
    /// size, frame rate or codec settings), adjusted as the session's outputs need (keyframe
    /// spacing, no B-frames when serving): the new encoder is opened here (a setting it refuses
    /// throws, and the running one stays), then takes over before the next frame with a keyframe;
    /// viewers and outputs stay connected. With `restartingCapture`, the sources `fresh.video` and
    /// `fresh.audio` name are opened at the new size and rate in place of the running ones (not for
    /// an app's own sources: their frames are scaled). False without video.
    @discardableResult
    public func restartVideoEncode(_ fresh: SessionSettings, restartingCapture: Bool) throws -> Bool {
        guard live.currentVideoSettings != nil else { return false }
        guard fresh.video != .none else {
            throw SettingsError(field: "video", value: "none", allowed: "a source: turning video off needs a restart")
        }
        var adjusted = settings
        adjusted.videoEncoder = fresh.videoEncoder
        adjusted.video = fresh.video
        adjusted.audio = fresh.audio
        let video = adjusted.effectiveVideoEncoder
        #if canImport(OnAirServing)
        // The faces were made for the codec (RTSP's payloader, HLS's segments, WebRTC's faces).
        if settings.serving != nil, video.codec != settings.effectiveVideoEncoder.codec {
            throw SettingsError(
                field: "codec", value: video.codec.rawValue,
                allowed: "\(settings.effectiveVideoEncoder.codec.rawValue) while serving (a new codec needs a restart)")
        }
        // WHEP offers are answered for the profile the face was made with.
        if settings.serving?.server.webRTC != nil, video.profileLevel.profile != settings.videoEncoder.profileLevel.profile {
            throw SettingsError(
                field: "profile", value: video.profileLevel.profile.rawValue,
                allowed: "\(settings.videoEncoder.profileLevel.profile.rawValue) while serving WebRTC (a new profile needs a restart)")
        }
        #endif
        let opened = try EncoderFactory.encoders(video: video, audio: nil)
        guard let encoder = opened.video else { return false }
        let sources = try restartingCapture ? sourceMaker.map { try $0(adjusted) } : nil
        live.replaceVideoEncoder(encoder)
        if let sources { try live.replaceSources(sources) }
        return true
    }

    /// Applies a reload's video bit rate and data-rate limits before the next frame, without a new
    /// encoder (see `LiveSession.setBitRate`).
    public func reloadBitRate(average: Int, dataRateLimits: [VideoEncoderSettings.DataRateLimit]) {
        live.setBitRate(average: average, dataRateLimits: dataRateLimits)
    }

    /// The session's events from now on, until it stops: one sequence per call, each with its own
    /// queue, in which failures, connection and viewer changes are never dropped and statistics
    /// are coalesced to the newest (see `SessionEventStream`).
    public func events() -> EventStream<SessionEvent> { fanOut.stream() }

    /// The latest once-a-second statistics (nil before the first second).
    public var latestStatistics: LiveStatistics? {
        state.withLock { $0.latest }
    }

    /// Starts sinks, encoders and sources; the session then runs by itself until the duration is
    /// reached, the sources end, a source, an encoder or every output fails, or `stop` is called,
    /// and sends `.statistics` once a second and `.stopped` at the end. For code that is not async;
    /// `run()` does this and waits. A source that cannot open leaves no empty output files behind:
    /// they are removed and the error is thrown. Starting twice does nothing.
    public func start() throws {
        let starting = state.withLock { state in
            guard state.phase == .built else { return false }
            state.phase = .running
            ended.enter()
            return true
        }
        guard starting else { return }
        do {
            try live.start()
        } catch {
            for output in fileOutputs { try? FileManager.default.removeItem(atPath: output) }
            teardown()
            conclude(.failure(error))
            throw error
        }
        let thread = Thread { [self] in monitor() }
        thread.name = "onair.session"
        state.withLock { $0.monitorThread = thread }
        thread.start()
    }

    /// Stops capture, encodes what is queued, finishes every output and returns the outcome; when
    /// the session has already stopped by itself, returns that outcome (with its reason). Waits for
    /// the session to finish, from any thread (also from the builder's event handler). Throws the
    /// first error a source or encoder hit; outputs that failed while others completed are in the
    /// outcome (`check()` throws them). A session stopped before it started removes the output
    /// files building created.
    @discardableResult
    public func stop(reason: StopReason = .cancelled) throws -> SessionOutcome {
        enum Step { case finishUnstarted, finish, wake, none }
        let step = state.withLock { state -> Step in
            switch state.phase {
            case .built:
                state.phase = .running
                ended.enter()
                return .finishUnstarted
            case .running where Thread.current === state.monitorThread:
                return .finish
            case .running, .finishing:
                if state.stopRequest == nil { state.stopRequest = reason }
                return .wake
            case .ended:
                return .none
            }
        }
        switch step {
        case .finishUnstarted: finish(reason, unstarted: true)
        case .finish: finish(reason)
        case .wake: wake.signal()
        case .none: break
        }
        ended.wait()
        return try state.withLock { $0.result! }.get()
    }

    /// Starts the session (its opening work off the cooperative pool) and waits until it stops by
    /// itself (duration, end of the sources, failure), `stop` is called, or the calling task is
    /// cancelled: cancellation stops it cleanly (every file finished) and returns the outcome with
    /// `reason == .cancelled`. No thread is held while it waits.
    public func run() async throws -> SessionOutcome {
        try await withTaskCancellationHandler {
            try await OffPool.run("onair.session.start") { try self.start() }
            return try await withCheckedThrowingContinuation { continuation in
                whenEnded { continuation.resume(with: $0) }
            }
        } onCancel: {
            requestStop(.cancelled)
        }
    }

    /// Asks the session to stop as `reason` without waiting (a cancelled `run`).
    private func requestStop(_ reason: StopReason) {
        state.withLock {
            if $0.stopRequest == nil { $0.stopRequest = reason }
        }
        wake.signal()
    }

    private func whenEnded(_ action: @escaping @Sendable (Result<SessionOutcome, any Error>) -> Void) {
        let result: Result<SessionOutcome, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.waiters.append(action)
            return nil
        }
        if let result { action(result) }
    }

    /// The running session's own thread: statistics once a second; at a stop request, the end of
    /// the sources or a failure (each wakes it at once), the stop.
    private func monitor() {
        var reason = settings.duration != nil ? StopReason.durationReached : .sourcesEnded
        var nextSecond = DispatchTime.now() + .seconds(1)
        while true {
            _ = wake.wait(timeout: nextSecond)
            let now = DispatchTime.now()
            if now >= nextSecond {
                nextSecond = nextSecond + .seconds(1)
                if nextSecond < now { nextSecond = now + .seconds(1) }
                let statistics = live.statistics()
                state.withLock { $0.latest = statistics }
                fanOut.send(.statistics(statistics))
            }
            if let requested = state.withLock({ $0.phase == .running ? $0.stopRequest : .cancelled }) {
                reason = requested
                break
            }
            if live.sourcesEnded { break }
            if live.error != nil {
                reason = .failed
                break
            }
        }
        finish(reason)
    }

    /// Stops the live session and its servers and concludes with the outcome; once only (a later
    /// call does nothing: its caller waits on `ended`).
    private func finish(_ reason: StopReason, unstarted: Bool = false) {
        let first = state.withLock { state in
            guard state.phase == .running else { return false }
            state.phase = .finishing
            return true
        }
        guard first else { return }
        var failedOutputs: [OutputFailure] = []
        var stopError: (any Error)?
        do {
            try live.stop()
        } catch let error as OutputsFailedError where reason != .failed {
            failedOutputs = error.failures
        } catch {
            stopError = error
        }
        // Stopped before it ran: the files building created hold nothing worth keeping.
        if unstarted { for output in fileOutputs { try? FileManager.default.removeItem(atPath: output) } }
        let totals = viewerTotals?()
        teardown()
        let last = live.statistics()
        let outcome = SessionOutcome(reason: reason, statistics: last, failedOutputs: failedOutputs, viewers: totals)
        fanOut.send(.stopped(reason))
        conclude(stopError.map { .failure($0) } ?? .success(outcome))
    }

    /// Sets the result, ends every event stream, resumes whoever waits.
    private func conclude(_ result: Result<SessionOutcome, any Error>) {
        fanOut.finish()
        let waiting = state.withLock { state in
            state.result = result
            state.phase = .ended
            state.monitorThread = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        for action in waiting { action(result) }
        ended.leave()
    }

    /// Makes the next encoded video frame an IDR.
    public func forceKeyFrame() { live.forceKeyFrame() }

    /// Changes the video bitrate live (clamped to the stream's level, with a notice).
    public func setBitRate(average: Int, dataRateLimits: [VideoEncoderSettings.DataRateLimit]) {
        live.setBitRate(average: average, dataRateLimits: dataRateLimits)
    }

    /// Outputs that have failed so far; the others carry on.
    public var failedOutputs: [OutputFailure] { live.outputFailures }
}
