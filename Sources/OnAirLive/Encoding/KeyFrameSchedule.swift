/// Keeps keyframes at least `interval` seconds of media apart at most, as VideoToolbox's
/// MaxKeyFrameIntervalDuration does, however many frames a live source dropped before the
/// encoder. An encoder's own interval counts frames: with frames dropped under load, a 60-frame
/// GOP meant as 2 s at 30 fps stretches (an HLS segment of 2 s became 2.6 or 3 s), so the session
/// forces the keyframe once the time is up.
package struct KeyFrameSchedule: Sendable {
    /// The longest distance between keyframes in seconds of media; 0: none.
    package let interval: Double
    /// Half a frame: a frame stamped that little early still counts as on time.
    private let tolerance: Double
    private var lastKeyFrame: Double?

    /// A schedule for `interval` seconds between keyframes at `frameRate` frames a second.
    package init(interval: Double, frameRate: Double) {
        self.interval = interval > 0 && interval.isFinite ? interval : 0
        tolerance = frameRate > 0 ? 0.5 / frameRate : 0
    }

    /// Whether the frame stamped `pts` (seconds) must be a keyframe.
    package func isDue(at pts: Double) -> Bool {
        guard interval > 0, let lastKeyFrame else { return false }
        return pts - lastKeyFrame >= interval - tolerance
    }

    /// The encoder made a keyframe stamped `pts`.
    package mutating func keyFrameMade(at pts: Double) {
        lastKeyFrame = pts
    }
}
