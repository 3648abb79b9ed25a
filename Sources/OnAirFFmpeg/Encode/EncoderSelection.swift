#if os(Linux)
/// Which H.264 encoder an `H264Encoder` uses and why each earlier candidate was passed over.
public struct EncoderSelection: Sendable, CustomStringConvertible {
    /// The hardware encoders `auto` tries, in order, before falling back to libx264.
    public static let hardwareCandidates = ["h264_videotoolbox", "h264_vaapi", "h264_nvenc", "h264_qsv", "h264_v4l2m2m"]
    /// The software encoder `auto` falls back to.
    public static let softwareFallback = "libx264"

    /// The FFmpeg encoder name in use (empty when none opened).
    public let chosen: String
    /// Candidates tried before `chosen` and FFmpeg's reason each could not open.
    public let rejected: [(name: String, reason: String)]

    /// Creates a selection record.
    public init(chosen: String, rejected: [(name: String, reason: String)]) {
        self.chosen = chosen
        self.rejected = rejected
    }

    /// Whether the chosen encoder is one of the hardware candidates.
    public var isHardware: Bool { Self.hardwareCandidates.contains(chosen) }

    /// The encoder chosen and, for each one tried before it, why it was not.
    public var description: String {
        let tried = rejected.map { "\($0.name): \($0.reason)" }.joined(separator: "; ")
        return (chosen.isEmpty ? "none" : chosen) + (tried.isEmpty ? "" : " (skipped \(tried))")
    }
}
#endif
