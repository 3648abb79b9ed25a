#if os(Linux)
import OnAirCore

/// Which H.264 or H.265 encoder an `H264Encoder` uses and why each earlier candidate was passed over.
package struct EncoderSelection: Sendable, CustomStringConvertible {
    /// The hardware H.264 encoders `auto` tries, in order, before falling back to libx264.
    package static let hardwareCandidates = ["h264_videotoolbox", "h264_vaapi", "h264_nvenc", "h264_qsv", "h264_v4l2m2m"]
    /// The software H.264 encoder `auto` falls back to.
    package static let softwareFallback = "libx264"
    /// The hardware H.265 encoders `auto` tries, in order, before falling back to libx265.
    static let hevcHardwareCandidates = ["hevc_vaapi", "hevc_nvenc", "hevc_qsv", "hevc_v4l2m2m"]

    /// What `auto` tries for `codec`, hardware first, the software encoder last.
    static func candidates(for codec: MediaCodec) -> [String] {
        codec == .h265 ? hevcHardwareCandidates + ["libx265"] : hardwareCandidates + [softwareFallback]
    }

    /// Whether `name` is one of the hardware encoders `auto` tries for either codec.
    static func isHardwareCandidate(_ name: String) -> Bool {
        hardwareCandidates.contains(name) || hevcHardwareCandidates.contains(name)
    }

    /// The FFmpeg encoder name in use (empty when none opened).
    package let chosen: String
    /// Candidates tried before `chosen` and FFmpeg's reason each could not open.
    package let rejected: [(name: String, reason: String)]

    /// Creates a selection record.
    package init(chosen: String, rejected: [(name: String, reason: String)]) {
        self.chosen = chosen
        self.rejected = rejected
    }

    /// Whether the chosen encoder is one of the hardware candidates.
    package var isHardware: Bool { Self.isHardwareCandidate(chosen) }

    /// The encoder chosen and, for each one tried before it, why it was not.
    package var description: String {
        let tried = rejected.map { "\($0.name): \($0.reason)" }.joined(separator: "; ")
        return (chosen.isEmpty ? "none" : chosen) + (tried.isEmpty ? "" : " (skipped \(tried))")
    }
}
#endif
