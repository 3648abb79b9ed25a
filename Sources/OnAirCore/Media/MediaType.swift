/// The kind of media a stream, packet or source carries.
public enum MediaType: String, Sendable, Codable, Hashable {
    case video
    case audio
}

/// The codecs OnAir encodes and parses.
public enum MediaCodec: String, Sendable, Codable, Hashable {
    case h264
    case aac
    /// Opus (RFC 6716), for WebRTC viewers.
    case opus
}
