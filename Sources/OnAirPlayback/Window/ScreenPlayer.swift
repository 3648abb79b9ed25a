#if os(Linux)
import Foundation

#if canImport(OnAirSDL) && canImport(OnAirFFmpeg)
import OnAirCore
import OnAirFFmpeg
import OnAirLive
import OnAirSDL

/// Shows what a `Player` decodes in a window and plays its sound, in sync with the audio clock
/// as master; for live inputs keeps the delay near a small target (a jitter buffer) and catches up
/// when it grows, for files plays at their own pace.
///
/// The `Player` calls the `PlaybackSink` methods on its receiving thread; `run(player:every:)`
/// runs the window on the calling thread (the process's main thread).
/// Unchecked Sendable: SDL's window and renderer are used only on the thread running `run`; shared vars under `lock`
public final class ScreenPlayer: PlaybackSink, @unchecked Sendable {
    /// How to show and play.
    public struct Options: Sendable {
        /// Start in full screen.
        public var fullscreen = false
        /// The live jitter buffer in seconds: the least sound kept queued ahead of the device
        /// when new sound arrives (`CatchUpPolicy.target`).
        public var latency = 0.01
        /// Play the sound (false: picture only).
        public var audio = true
        /// Read each shown frame's wall-clock code and measure latency at the screen.
        public var measureLatency = false
        /// The title's first part (the URL).
        public var title = "onair play"
        /// Creates default options.
        public init() {}
    }

    /// Why `run` returned.
    package enum StopReason: Sendable, Equatable {
        /// The user closed the window or pressed `q`/Esc.
        case quit
        /// The player finished and everything was shown and played.
        case ended
        /// The once-a-second callback asked to stop.
        case requested
    }

    /// The options in use.
    public let options: Options
    /// Lines to show the user about what could not be had (no sound device, …).
    public internal(set) var notes: [String] = []

    let window: SDLWindow
    let output: SDLAudioOutput?
    let converter: PCMConverter?
    let lock = NSLock()
    let space = NSCondition()

    // Guarded by `lock`.
    var frames: [VideoFrame] = []
    var clock = MasterClock(source: .wall)
    var live = false
    var hasAudio = false
    var audioStarted = false
    var compensating = false
    var watermark = AudioQueueWatermark()
    private var lastVideoPTS: Double?
    var banner: String?
    var ended = false
    /// When the sound still queued at the input's end must have played (monotonic seconds).
    var drainDeadline: Double?
    var stopping = false
    var paused = false
    var report = DisplayReport()
    var shownLatency = LatencyStatistics()
    var lastShownLatencyMs: Double?
    var firstFrameWaiting: Double?
    var sizedWindow = false

    /// Opens the window (and the sound device when `options.audio`): throws (an SDL error naming the cause) when there
    /// is no display. A missing sound device is not an error: `notes` says so and the picture
    /// plays against the wall clock.
    public init(options: Options) throws {
        self.options = options
        window = try SDLWindow(title: options.title, width: 640, height: 360, fullscreen: options.fullscreen)
        if options.audio {
            do {
                let device = try SDLAudioOutput()
                output = device
                converter = PCMConverter(outputRate: device.sampleRate, outputChannels: device.channels)
                report.audioDevice = "\(device.driver) \(device.sampleRate) Hz \(device.channels) ch"
            } catch {
                output = nil
                converter = nil
                notes.append("no audio device (\(error.description)): playing the picture only")
            }
        } else {
            output = nil
            converter = nil
        }
    }

    /// Opens a window and sound for `options`, or nil with a line saying why the player runs
    /// headless (no display to open a window on).
    public static func openIfPossible(options: Options) -> (screen: ScreenPlayer?, notes: [String]) {
        do {
            let screen = try ScreenPlayer(options: options)
            return (screen, screen.notes)
        } catch {
            return (nil, ["no display (\(error)): playing headless, as with --no-display"])
        }
    }

    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// What the window and speakers did so far.
    package func displayReport() -> DisplayReport {
        lock.lock()
        defer { lock.unlock() }
        var result = report
        result.sizeChanges = window.sizeChanges
        result.shownLatencyMs = shownLatency.percentile(50).map { p50 in
            PlaybackReport.Latency(
                p50: Self.round(p50 * 1000), p95: Self.round((shownLatency.percentile(95) ?? p50) * 1000),
                max: Self.round((shownLatency.maximum ?? p50) * 1000), samples: shownLatency.count,
                startupFrames: 0)
        }
        return result
    }

    static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    // MARK: - PlaybackSink (the player's receiving thread)

    /// Starts over for a newly opened input: the clock by its audio (when played) or the wall.
    public func inputOpened(live: Bool, hasVideo: Bool, hasAudio: Bool) {
        lock.lock()
        self.live = live
        self.hasAudio = hasAudio && output != nil
        report.clock = self.hasAudio ? "audio" : "wall"
        report.latencyTargetMs = live ? options.latency * 1000 : nil
        resetLocked()
        banner = nil
        lock.unlock()
    }

    private func resetLocked() {
        frames.removeAll()
        clock = MasterClock(source: hasAudio ? .audio : .wall)
        audioStarted = false
        watermark.reset()
        lastVideoPTS = nil
        firstFrameWaiting = nil
        output?.setPaused(true)
        output?.clear()
        space.broadcast()
    }

    /// Shows the waiting banner and drops what was queued (the player opens the input again).
    public func inputLost(reason: String) {
        lock.lock()
        report.reconnects += 1
        banner = "STREAM STOPPED - WAITING"
        resetLocked()
        lock.unlock()
    }

    /// A live input paced by the wall clock starts it again at the next frame: the sender that
    /// restarted took wall time the joined timeline does not show. The audio clock, and a file's
    /// pacing, run on.
    public func timestampsJumped() {
        lock.lock()
        if live, clock.source == .wall { clock.reset() }
        lock.unlock()
    }

    /// Marks the input finished: `run` returns once everything queued is shown and played.
    public func inputEnded() {
        lock.lock()
        ended = true
        lock.unlock()
    }

    /// Asks a blocked `video`/`audio` call to return (the player is stopping).
    public func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        space.broadcast()
    }

    /// Queues a frame for the window; for a file, waits while enough are queued ahead.
    public func video(_ frame: VideoFrame) {
        let pts = frame.pts.seconds
        lock.lock()
        // A jump in the timestamps the decoder did not join (forward 5-10 s): start the clock again.
        if let last = lastVideoPTS, pts < last - 0.5 || pts > last + 5 {
            resetLocked()
        }
        lastVideoPTS = pts
        frames.append(frame)
        if live, frames.count > 120 {
            frames.removeFirst()
            report.framesDroppedCatchUp += 1
        }
        let pace = !live
        lock.unlock()
        // A file is decoded only a few frames ahead of what is shown.
        if pace {
            space.lock()
            while true {
                lock.lock()
                // Decode on while the sound runs short (the file's audio lies behind its video).
                let audioShort = clock.source == .audio && (output.map { $0.queuedFrames < $0.sampleRate / 10 } ?? false)
                let wait = !stopping && (frames.count >= 90 || (frames.count >= 8 && !audioShort))
                lock.unlock()
                if !wait { break }
                _ = space.wait(until: Date().addingTimeInterval(0.05))
            }
            space.unlock()
        }
    }
}
#endif
#endif
