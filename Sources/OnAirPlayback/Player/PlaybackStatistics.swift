#if os(Linux)
/// The receiver's state, once a second and at the end: what `onair play --stats-json` writes.
public struct PlaybackStatistics: Sendable, Codable, Equatable {
    /// Wall-clock seconds since the player started.
    public var elapsed: Double = 0
    /// Video frames decoded.
    public var frames = 0
    /// Video frames decoded in the last second of wall-clock time.
    public var fpsNow: Double = 0
    /// Audio samples (per channel) decoded.
    public var audioSamples = 0
    /// Bytes of compressed packets received, all streams.
    public var bytes = 0
    /// Bitrate over the last second of wall-clock time, in kbit/s.
    public var bitrateKbpsNow: Double = 0
    /// Decoder errors plus damaged packets.
    public var decodeErrors = 0
    /// Packets the demuxer marked as damaged (included in `decodeErrors`).
    public var damagedPackets = 0
    /// Video packets of a live input received before its first keyframe (not decoded, not errors).
    public var packetsBeforeKeyFrame = 0
    /// Freezes: presentation gaps over three frame durations or stalls over 0.5 s.
    public var freezes = 0
    /// Whether no frame has arrived for more than 0.5 s now.
    public var stalled = false
    /// The latest end-to-end latency measured from the frame code, in milliseconds.
    public var latencyMs: Double?

    /// Creates empty statistics.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case elapsed, frames, bytes, freezes, stalled
        case fpsNow = "fps_now"
        case audioSamples = "audio_samples"
        case bitrateKbpsNow = "bitrate_kbps_now"
        case decodeErrors = "decode_errors"
        case damagedPackets = "damaged_packets"
        case packetsBeforeKeyFrame = "packets_before_keyframe"
        case latencyMs = "latency_ms"
    }
}
#endif
