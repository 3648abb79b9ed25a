/// The kind of media a stream, packet or source carries.
public enum MediaType: String, Sendable, Codable, Hashable {
    /// Pictures.
    case video
    /// Sound.
    case audio
}

/// The codecs OnAir encodes and parses.
public enum MediaCodec: String, Sendable, Codable, Hashable {
    /// H.264 (ISO/IEC 14496-10), the video codec.
    case h264
    /// H.265/HEVC (ITU-T H.265), the video codec that halves a recording's disk at the same picture.
    case h265
    /// AAC (ISO/IEC 14496-3), the audio codec of files and most streams.
    case aac
    /// Opus (RFC 6716), for WebRTC viewers.
    case opus
}
