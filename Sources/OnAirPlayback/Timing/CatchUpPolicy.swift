#if os(Linux)
/// How a live player keeps its delay near the target: what to do with the audio arriving, given
/// how much was queued ahead of the device at this arrival and at its lowest over the last
/// moments (`AudioQueueWatermark`).
///
/// The target is the jitter buffer: the least audio that should be waiting when the next audio
/// arrives. What the queue holds above its low-water mark is only the arrivals' jitter; a
/// low-water mark above the target is a standing backlog, pure delay, and is played away: the
/// next audio is played slightly faster (at most `maximumSpeedUp`, shortening it without an
/// audible gap) until the low-water mark is back at the target. When the queue is so long that
/// speeding up would take too long (a burst after a stall), what is queued is dropped and
/// playback goes on from the arriving audio (one short glitch instead of seconds of fast
/// sound). Files never catch up.
package struct CatchUpPolicy: Sendable, Equatable {
    /// What to do with one arriving run of audio.
    public enum Action: Sendable, Equatable {
        /// Queue it as it is.
        case play
        /// Queue it shortened by this many output samples (resampled slightly faster).
        case shorten(samples: Int)
        /// Drop everything queued, then queue it.
        case skipQueued
    }

    /// The least audio (seconds) to keep queued when new audio arrives: the jitter buffer.
    public var target: Double
    /// Excess of the low-water mark over the target tolerated before catching up, in seconds.
    public var margin = 0.005
    /// The largest fraction by which audio is sped up (0.1: 10 % faster, a small pitch change).
    public var maximumSpeedUp = 0.1
    /// Queue beyond the target (seconds) above which the queued audio is dropped instead.
    public var skipAbove = 0.12

    /// A policy keeping at least `target` seconds queued and no standing backlog above it.
    public init(target: Double) {
        self.target = target
    }

    /// The action for `frames` output samples arriving at `rate` Hz while `queued` seconds wait,
    /// the least queued at recent arrivals being `lowWater` seconds.
    public func action(queued: Double, lowWater: Double, frames: Int, rate: Int) -> Action {
        if queued - target > skipAbove { return .skipQueued }
        let excess = min(lowWater, queued) - target
        guard excess > margin else { return .play }
        let wanted = Int((excess * Double(rate)).rounded())
        let most = Int(Double(frames) * maximumSpeedUp)
        let samples = min(wanted, most)
        return samples > 0 ? .shorten(samples: samples) : .play
    }
}
#endif
