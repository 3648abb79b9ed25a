#if os(Linux)
/// Where a GStreamer payloader of the served stream starts its RTP timestamps (the WebRTC face's
/// video; the RTSP face packetizes itself, `ServeElementarySink`, with the same start).
enum ServeRTSPPipeline {
    /// A payloader's `timestamp-offset` property putting its first RTP timestamp at
    /// `timelineStart` seconds (90 kHz, modulo 2^32), with a leading space; empty for 0 (the
    /// payloader's own random base).
    static func timestampOffset(_ timelineStart: Double) -> String {
        guard timelineStart > 0 else { return "" }
        return " timestamp-offset=\(UInt32(truncatingIfNeeded: Int64((timelineStart * 90_000).rounded())))"
    }
}
#endif
