import Foundation

#if canImport(OnAirSDL) && canImport(OnAirFFmpeg)
import OnAirCore
import OnAirFFmpeg
import OnAirSDL

/// Shows what a `Player` decodes in a window and plays its sound, in sync with the audio clock
/// as master; for live inputs keeps the delay near a small target (a jitter buffer) and catches up
/// when it grows, for files plays at their own pace.
///
/// The `Player` calls the `PlaybackSink` methods on its receiving thread; `run(player:every:)`
/// runs the window on the calling thread (the process's main thread).
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
    public enum StopReason: Sendable, Equatable {
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
    public private(set) var notes: [String] = []

    private let window: SDLWindow
    private let output: SDLAudioOutput?
    private let converter: PCMConverter?
    private let lock = NSLock()
    private let space = NSCondition()

    // Guarded by `lock`.
    private var frames: [VideoFrame] = []
    private var clock = MasterClock(source: .wall)
    private var live = false
    private var hasAudio = false
    private var audioStarted = false
    private var compensating = false
    private var watermark = AudioQueueWatermark()
    private var lastVideoPTS: Double?
    private var banner: String?
    private var ended = false
    private var stopping = false
    private var paused = false
    private var report = DisplayReport()
    private var shownLatency = LatencyStatistics()
    private var lastShownLatencyMs: Double?
    private var firstFrameWaiting: Double?
    private var sizedWindow = false

    /// Opens the window (and the sound device when `options.audio`): throws `SDLError` when there
    /// is no display. A missing sound device is not an error: `notes` says so and the picture
    /// plays against the wall clock.
    public init(options: Options) throws(SDLError) {
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
            return (nil, ["no display (\(error.description)): playing headless, as with --no-display"])
        }
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// What the window and speakers did so far.
    public func displayReport() -> DisplayReport {
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

    private static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    // MARK: - PlaybackSink (the player's receiving thread)

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

    public func audio(_ buffer: PCMBuffer) {
        guard let output, let converter else { return }
        lock.lock()
        let isLive = live, use = hasAudio
        lock.unlock()
        guard use else { return }
        let rate = output.sampleRate
        do {
            let expected = Int((buffer.duration.seconds * Double(rate)).rounded())
            if isLive {
                let queued = Double(output.queuedFrames) / Double(rate)
                lock.lock()
                watermark.record(queued: queued, now: Self.now)
                let lowWater = watermark.lowWater ?? queued
                report.audioLowWaterMs = Self.round(lowWater * 1000)
                lock.unlock()
                switch CatchUpPolicy(target: options.latency).action(queued: queued, lowWater: lowWater, frames: expected, rate: rate) {
                case .skipQueued:
                    let dropped = Double(output.queuedFrames) / Double(rate)
                    output.clear()
                    lock.lock()
                    watermark.reset()  // a new start: the levels before the burst say nothing now
                    report.audioDroppedMs += dropped * 1000
                    lock.unlock()
                case .shorten(let samples):
                    try converter.compensate(delta: -samples, distance: max(expected, 1))
                    compensating = true
                    lock.lock()
                    watermark.lower(by: Double(samples) / Double(rate))
                    report.audioShortenedMs += Double(samples) / Double(rate) * 1000
                    lock.unlock()
                case .play:
                    if compensating {
                        try converter.compensate(delta: 0, distance: max(expected, 1))
                        compensating = false
                    }
                }
            } else {
                // A file: keep about a quarter of a second queued.
                while Double(output.queuedFrames) / Double(rate) > 0.25 {
                    lock.lock()
                    let stop = stopping
                    lock.unlock()
                    if stop { return }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            let samples = try converter.convert(buffer)
            try output.queue(samples)
            lock.lock()
            clock.audioEnd = buffer.pts.seconds + buffer.duration.seconds
            let queued = Double(output.queuedFrames) / Double(rate)
            if !audioStarted, queued >= (isLive ? options.latency : 0.05), !paused {
                audioStarted = true
                output.setPaused(false)
            }
            lock.unlock()
        } catch {
            lock.lock()
            notes.append("sound stopped: \(error)")
            hasAudio = false
            clock = MasterClock(source: .wall)
            report.clock = "wall"
            lock.unlock()
        }
    }

    // MARK: - The window (the calling thread)

    /// Runs the window until the user quits, the player has finished and everything is shown,
    /// or `every` (called about once a second with fresh statistics) returns true.
    public func run(player: Player, every: (PlaybackStatistics) -> Bool) -> StopReason {
        var nextSecond = Self.now + 1
        var overlay = false
        var lastStats = PlaybackStatistics()
        var shownThisSecond = 0, shownRate = 0.0
        var dirty = true
        var displayLead = 0.0
        defer {
            stop()
            output?.setPaused(true)
        }
        while true {
            for event in window.pollEvents() {
                switch event {
                case .quit: return .quit
                case .toggleFullscreen: window.toggleFullscreen()
                case .toggleOverlay: overlay.toggle()
                case .togglePause: togglePause()
                case .redraw: break
                }
                dirty = true
            }
            let now = Self.now
            if now >= nextSecond {
                lastStats = player.statistics()
                shownRate = Double(shownThisSecond) / (now - nextSecond + 1)
                shownThisSecond = 0
                nextSecond = now + 1
                if every(lastStats) { return .requested }
                updateTitle(lastStats, shownRate: shownRate)
                dirty = true
            }
            let (frame, due, finished) = nextFrame(now: now, lead: displayLead)
            var shown: VideoFrame?
            if let frame {
                do {
                    if !sizedWindow {
                        window.setSize(width: frame.width, height: frame.height)
                        sizedWindow = true
                    }
                    try window.upload(frame)
                    shown = frame
                    shownThisSecond += 1
                } catch {
                    lock.lock()
                    if !notes.contains(error.description) { notes.append(error.description) }
                    lock.unlock()
                }
                dirty = true
            }
            if dirty {
                window.present(lines: overlay ? overlayLines(lastStats, shownRate: shownRate) : [], banner: currentBanner(lastStats))
                dirty = false
            }
            if let shown {
                // Frames are chosen this much ahead of the clock: the time an upload and present take.
                displayLead = DisplayLead.update(displayLead, sample: Self.now - now)
                lock.lock()
                report.displayLeadMs = Self.round(displayLead * 1000)
                lock.unlock()
                if options.measureLatency, let seconds = Player.latency(of: shown, wall: Date().timeIntervalSince1970) {
                    lock.lock()
                    shownLatency.add(seconds)
                    lastShownLatencyMs = seconds * 1000
                    lock.unlock()
                }
            }
            if finished { return .ended }
            let sleep = min(max(due ?? 0.005, 0.001), 0.005)
            Thread.sleep(forTimeInterval: sleep)
        }
    }

    private func togglePause() {
        lock.lock()
        defer { lock.unlock() }
        guard !live else { return }
        paused.toggle()
        clock.setPaused(paused, now: Self.now)
        if audioStarted { output?.setPaused(paused) }
        banner = paused ? "PAUSED" : nil
    }

    private func currentBanner(_ stats: PlaybackStatistics) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let banner { return banner }
        if live, stats.stalled, !ended { return "STREAM STOPPED - WAITING" }
        return nil
    }

    /// The frame to show now (if any), seconds until the next is due, and whether playback is over.
    /// `lead`: how long showing a frame takes, so frames due within it are shown now.
    private func nextFrame(now: Double, lead: Double) -> (VideoFrame?, Double?, Bool) {
        lock.lock()
        defer { lock.unlock() }
        if paused { return (nil, nil, false) }
        if let output, clock.source == .audio {
            clock.audioWaiting = Double(output.queuedFrames + output.bufferFrames) / Double(output.sampleRate)
        }
        // Sound that never comes must not hold the picture: after a second, pace it by the wall clock.
        if clock.source == .audio, !audioStarted, !frames.isEmpty {
            if firstFrameWaiting == nil { firstFrameWaiting = now }
            if now - (firstFrameWaiting ?? now) > 1 {
                clock = MasterClock(source: .wall)
                report.clock = "wall"
                hasAudio = false
            }
        }
        if clock.source == .wall, clock.anchorMedia == nil, let first = frames.first {
            clock.anchor(media: first.pts.seconds, now: now, delay: live ? options.latency : 0)
        }
        var catchUp = 0
        if live, clock.source == .wall, let newest = frames.last, let time = clock.time(now: now) {
            let ahead = newest.pts.seconds - time
            // Video arrives in whole frames with jitter: a backlog of 20 ms over the target stands.
            if ahead > options.latency + 0.02 {
                clock.skip(ahead - options.latency)
                catchUp = 1
            }
        }
        let output = self.output
        let finished = ended && frames.isEmpty && (clock.source == .wall || (output?.queuedFrames ?? 0) == 0)
        guard let time = clock.time(now: now), !frames.isEmpty else { return (nil, nil, finished) }
        let decision = FrameScheduler.decide(times: frames.map { $0.pts.seconds }, clock: time + lead)
        guard let show = decision.show else { return (nil, decision.nextDue, false) }
        let frame = frames[show]
        frames.removeFirst(decision.taken)
        if catchUp > 0 { report.framesDroppedCatchUp += decision.dropped } else { report.framesDroppedLate += decision.dropped }
        report.framesShown += 1
        space.broadcast()
        return (frame, decision.nextDue, false)
    }

    private func updateTitle(_ stats: PlaybackStatistics, shownRate: Double) {
        lock.lock()
        let drops = report.framesDroppedLate + report.framesDroppedCatchUp
        let latency = lastShownLatencyMs ?? stats.latencyMs
        lock.unlock()
        var title = "\(options.title) — \(String(format: "%.0f", shownRate)) fps · \(String(format: "%.0f", stats.bitrateKbpsNow)) kb/s"
        if let latency { title += String(format: " · %.0f ms", latency) }
        title += " · \(drops) dropped"
        window.title = title
    }

    private func overlayLines(_ stats: PlaybackStatistics, shownRate: Double) -> [String] {
        lock.lock()
        let copy = report
        let latency = lastShownLatencyMs ?? stats.latencyMs
        let queued = output.map { Double($0.queuedFrames) / Double($0.sampleRate) * 1000 }
        lock.unlock()
        var lines = [
            String(format: "FPS %.1f SHOWN, %.1f DECODED", shownRate, stats.fpsNow),
            String(format: "BITRATE %.0f KB/S", stats.bitrateKbpsNow),
            latency.map { String(format: "LATENCY %.0f MS", $0) } ?? "LATENCY -",
            "DROPPED \(copy.framesDroppedLate) LATE, \(copy.framesDroppedCatchUp) CATCH-UP",
            "ERRORS \(stats.decodeErrors), FREEZES \(stats.freezes)",
            "CLOCK \(copy.clock.uppercased())" + (queued.map { String(format: ", AUDIO QUEUED %.0f MS", $0) } ?? ""),
        ]
        if let target = copy.latencyTargetMs { lines.append(String(format: "TARGET %.0f MS", target)) }
        return lines
    }
}
#endif
