/// How a live player keeps its delay near the target: what to do with the audio arriving when
/// `queued` seconds are already waiting to be played.
///
/// Below the target plus a margin nothing is done; above it the next audio is played slightly
/// faster (at most `maximumSpeedUp`, shortening it without an audible gap) until the excess is
/// gone; when the queue is so long that speeding up would take too long (a burst after a stall),
/// what is queued is dropped and playback goes on from the arriving audio (one short glitch
/// instead of seconds of fast sound). Files never catch up.
public struct CatchUpPolicy: Sendable, Equatable {
    /// What to do with one arriving run of audio.
    public enum Action: Sendable, Equatable {
        /// Queue it as it is.
        case play
        /// Queue it shortened by this many output samples (resampled slightly faster).
        case shorten(samples: Int)
        /// Drop everything queued, then queue it.
        case skipQueued
    }

    /// The delay the player aims for, in seconds.
    public var target: Double
    /// Excess tolerated before catching up, in seconds.
    public var margin: Double
    /// The largest fraction by which audio is sped up (0.1: 10 % faster, a small pitch change).
    public var maximumSpeedUp = 0.1
    /// Excess beyond which the queued audio is dropped instead, in seconds.
    public var skipAbove = 0.12

    /// A policy aiming at `target` seconds, with a margin of a quarter of it (at least 20 ms).
    public init(target: Double) {
        self.target = target
        margin = max(0.02, target / 4)
    }

    /// The action for `frames` output samples arriving at `rate` Hz while `queued` seconds wait.
    public func action(queued: Double, frames: Int, rate: Int) -> Action {
        let excess = queued - target
        guard excess > margin else { return .play }
        if excess > skipAbove { return .skipQueued }
        let wanted = Int((excess * Double(rate)).rounded())
        let most = Int(Double(frames) * maximumSpeedUp)
        let samples = min(wanted, most)
        return samples > 0 ? .shorten(samples: samples) : .play
    }
}
