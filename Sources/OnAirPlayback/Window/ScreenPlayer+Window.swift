#if os(Linux)
import Foundation

#if canImport(OnAirSDL) && canImport(OnAirFFmpeg)
import OnAirCore
import OnAirFFmpeg
import OnAirLive
import OnAirSDL

/// The window (the calling thread): events, choosing the frame due by the master clock, the
/// title, the overlay and the banner.
extension ScreenPlayer {
    /// Runs the window until the user quits, the player has finished and everything is shown,
    /// or `every` (called about once a second with fresh statistics) returns true.
    package func run(player: Player, every: (PlaybackStatistics) -> Bool) -> StopReason {
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
        var finished = ended && frames.isEmpty && (clock.source == .wall || (output?.queuedFrames ?? 0) == 0)
        if ended, frames.isEmpty, !finished {
            // The sound queued at the end plays out in its own duration; a device that stopped
            // taking it (a sound server that stalled) must not hold the window open for ever.
            let queued = Double(output?.queuedFrames ?? 0) / Double(max(1, output?.sampleRate ?? 1))
            if drainDeadline == nil { drainDeadline = now + queued + 2 }
            if let drainDeadline, now > drainDeadline { finished = true }
        }
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
#endif
