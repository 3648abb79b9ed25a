import OnAirBitstream
import Testing

/// One x264 configuration to encode and check against ffprobe.
struct H264StreamCase: Sendable, CustomTestStringConvertible {
    /// What the case is about.
    var name: String
    /// The `testsrc2` size.
    var size = "320x240"
    /// The `testsrc2` frame rate.
    var rate = "25"
    /// How many frames to encode.
    var frames = 10
    /// An optional `-vf` filter chain.
    var filter: String?
    /// Extra ffmpeg output arguments (codec options).
    var arguments: [String]
    /// The profile name ffprobe should print (and `H264SPS.profileName` must match).
    var profile: String
    /// Whether ffprobe's `pix_fmt` is comparable with the SPS (not for monochrome, which FFmpeg
    /// decodes as 4:2:0).
    var comparePixelFormat = true
    /// Whether to remux to MP4 and check the `avcC` record.
    var checkMP4 = false
    /// Case-specific checks on the stream's first SPS and PPS and its access units.
    var check: @Sendable (H264SPS, H264PPS, [H264AccessUnit]) -> Void = { _, _, _ in }

    var testDescription: String { name }
}
