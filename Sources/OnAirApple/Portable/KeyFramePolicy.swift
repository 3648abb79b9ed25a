import OnAirCore

/// Decides, frame by frame, whether to pass VideoToolbox's per-frame option
/// `kVTEncodeFrameOptionKey_ForceKeyFrame` (a frame option, not a session property).
///
/// A keyframe is forced for the first frame, when the caller asks, and as a backstop when the
/// next frame would otherwise break `maxKeyFrameInterval` (frames) or `maxKeyFrameIntervalDuration`
/// (seconds): the session properties ask the same of the encoder, and the policy makes the limits
/// hold even where an encoder treats them loosely. Keyframes the encoder makes on its own are
/// reported back with `encoded(isKeyframe:pts:)` and restart the count. A pure value.
public struct KeyFramePolicy: Sendable {
    /// The most frames from one keyframe to the next.
    public let maxInterval: Int
    /// The longest time from one keyframe to the next in seconds; 0 means no limit.
    public let maxDuration: Double
    /// Timestamps of the frames submitted since the last keyframe, oldest first (nil before the first frame).
    private var sinceKeyFrame: [MediaTime]?
    private var lastKeyFramePTS = MediaTime.zero
    /// Frames given the force option so far, and how many of them the caller asked for.
    public private(set) var forced = 0, requested = 0

    /// A policy for the keyframe limits of `settings`.
    public init(settings: VideoEncoderSettings) {
        maxInterval = max(1, settings.maxKeyFrameInterval)
        maxDuration = max(0, settings.maxKeyFrameIntervalDuration)
    }

    /// Whether the frame at `pts` must be encoded with the force-keyframe option; `requested` is the
    /// caller's `forceKeyFrame`. Counts the frame.
    public mutating func forceKeyFrame(at pts: MediaTime, requested: Bool) -> Bool {
        var force = requested
        if let frames = sinceKeyFrame {
            if frames.count + 1 >= maxInterval { force = true }
            // Half a microsecond of slack: timestamps converted between timescales round.
            if maxDuration > 0, (pts - lastKeyFramePTS).seconds >= maxDuration - 5e-7 { force = true }
        } else {
            force = true
        }
        if requested { self.requested += 1 }
        if force {
            forced += 1
            sinceKeyFrame = []
            lastKeyFramePTS = pts
        } else {
            sinceKeyFrame?.append(pts)
        }
        return force
    }

    /// The encoder produced a frame; a keyframe it made on its own (one later than the last forced
    /// one) restarts the count from it.
    public mutating func encoded(isKeyframe: Bool, pts: MediaTime) {
        guard isKeyframe, let frames = sinceKeyFrame, pts > lastKeyFramePTS else { return }
        lastKeyFramePTS = pts
        sinceKeyFrame = frames.filter { $0 > pts }
    }
}
