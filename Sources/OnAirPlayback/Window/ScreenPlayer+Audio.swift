#if os(Linux)
import Foundation

#if canImport(OnAirSDL) && canImport(OnAirFFmpeg)
import OnAirCore
import OnAirFFmpeg
import OnAirLive
import OnAirSDL

/// The sound (the player's receiving thread): for a live input keeps the queue near the
/// jitter-buffer target (skipping or shortening what lies beyond it), for a file about a quarter of a
/// second ahead; the audio clock follows what was queued.
extension ScreenPlayer {
    /// Converts and queues a sample run for the sound device (dropped when sound is off or failed).
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
}
#endif
#endif
