#if os(Linux)
/// Which live HLS `onair serve` writes (`--hls-variant`, config key `hls-variant`).
public enum HLSVariant: String, Sendable, Codable, CaseIterable {
    /// MPEG-TS segments from libavformat's HLS muxer (H.264); H.265 is always fMP4.
    case mpegts
    /// Fragmented MP4 (CMAF) segments behind an init section (`EXT-X-MAP`), for every codec.
    case fmp4
    /// fMP4 with Low-Latency HLS: partial segments, preload hints, blocking playlist reload and
    /// delta updates.
    case lowlatency

    /// Whether the segments are fragmented MP4 for `codec`: H.265 is fMP4 in every variant.
    package func isFragmentedMP4(h264: Bool) -> Bool { self != .mpegts || !h264 }
}
#endif
