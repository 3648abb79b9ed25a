#if os(Linux)
import OnAirAnalysis

/// What a recording of a player's screen and speakers shows (see `ScreenRecordingAnalysis`).
public struct ScreenRecordingReport: Sendable, Codable, Equatable {
    /// Pictures recorded, and how many of them carried a readable frame code.
    public var recordedFrames = 0, framesWithCode = 0
    /// Different frames seen, and the lowest and highest frame index among them.
    public var distinctFrames = 0, firstFrame = 0, lastFrame = 0
    /// Recorded pictures whose frame came before one already seen (should be 0).
    public var outOfOrder = 0
    /// Recorded pictures showing the same frame as the picture before (the recording runs
    /// faster than the video, so about rate ratio − 1 per frame is normal).
    public var repeated = 0
    /// Frames between the first and last seen that never appeared.
    public var skipped = 0
    /// After the settling time: frames seen and frames never seen between them.
    public var steadyFrames = 0, steadySkipped = 0
    /// Glass-to-glass latency: first appearance on the screen minus capture by the sender.
    public var latencyMs: PlaybackReport.Latency?
    /// Flashes seen paired with beeps heard: the A/V offset at the screen and speaker.
    public var sync: SyncReport?

    /// Creates an empty report.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case repeated, skipped, sync
        case recordedFrames = "recorded_frames"
        case framesWithCode = "frames_with_code"
        case distinctFrames = "distinct_frames"
        case firstFrame = "first_frame"
        case lastFrame = "last_frame"
        case outOfOrder = "out_of_order"
        case steadyFrames = "steady_frames"
        case steadySkipped = "steady_skipped"
        case latencyMs = "latency_ms"
    }
}
#endif
