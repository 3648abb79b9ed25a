#if os(Linux)
/// A container `onair serve` produces once and fans out to its viewers.
package enum ServeFormat: String, Sendable, CaseIterable, Codable {
    /// MPEG-TS (`/live.ts`, SRT callers).
    case mpegTS = "ts"
    /// Fragmented MP4: an init segment, then one fragment per video frame (`/live.mp4`).
    case fragmentedMP4 = "mp4"
    /// No container: each chunk is one encoded packet (H.264/H.265 Annex-B access unit with parameter sets
    /// before IDRs, or a raw AAC frame), for faces that packetize themselves (RTSP).
    case elementary = "es"

    /// The HTTP Content-Type.
    public var contentType: String {
        switch self {
        case .mpegTS: return "video/mp2t"
        case .fragmentedMP4: return "video/mp4"
        case .elementary: return "application/octet-stream"
        }
    }

    /// The libavformat muxer.
    var muxer: String {
        switch self {
        case .mpegTS: return "mpegts"
        case .fragmentedMP4: return "mp4"
        case .elementary: return ""  // never muxed
        }
    }

    /// Muxer options: MP4 as an empty moov (the init segment) and fragments cut by the serve sink.
    var muxerOptions: [String: String] {
        switch self {
        // Each audio frame in its own PES and the video PES length written, so a receiver hands on
        // each frame as soon as it arrives (as `onair stream` does for live MPEG-TS).
        case .mpegTS: return ["pes_payload_size": "0", "omit_video_pes_length": "0"]
        // The serve sink starts every track at or after 0 itself; libavformat's own shift would
        // take the first packet written (perhaps audio, a little after the keyframe) as zero.
        case .fragmentedMP4: return ["movflags": "+empty_moov+default_base_moof+frag_custom", "avoid_negative_ts": "disabled"]
        case .elementary: return [:]
        }
    }
}
#endif
