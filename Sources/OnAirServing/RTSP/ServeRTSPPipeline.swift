#if os(Linux)
import OnAirBitstream
import OnAirCore

/// The payloading pipeline gst-rtsp-server builds for each RTSP client, and the caps of its
/// sources: H.264 per RFC 6184 (packetization-mode 1, parameter sets in the SDP and before every
/// IDR) and AAC per RFC 3640 (mpeg4-generic, AAC-hbr).
enum ServeRTSPPipeline {
    /// The served path.
    static let path = "/live"

    /// The gst-launch description for the given streams: `appsrc name=video` → `rtph264pay`
    /// (pay0, pt 96), `appsrc name=audio` → `rtpmp4gpay` (pay1 or pay0, pt 97). The sources are
    /// live, in time, never block and keep what they are given (the feed bounds them).
    /// With a `timelineStart` (seconds) the video's RTP timestamps start there (90 kHz, modulo 2^32).
    static func launch(streams: Set<MediaType>, timelineStart: Double = 0) -> String {
        var parts: [String] = []
        let source = "is-live=true format=time do-timestamp=false block=false max-bytes=0"
        if streams.contains(.video) {
            let base = timestampOffset(timelineStart)
            parts.append(
                "appsrc name=video \(source) ! rtph264pay name=pay0 pt=96 config-interval=0 aggregate-mode=zero-latency\(base)")
        }
        if streams.contains(.audio) {
            parts.append("appsrc name=audio \(source) ! rtpmp4gpay name=pay\(parts.count) pt=97")
        }
        return "( " + parts.joined(separator: " ") + " )"
    }

    /// A payloader's `timestamp-offset` property putting its first RTP timestamp at
    /// `timelineStart` seconds (90 kHz, modulo 2^32), with a leading space; empty for 0 (the
    /// payloader's own random base).
    static func timestampOffset(_ timelineStart: Double) -> String {
        guard timelineStart > 0 else { return "" }
        return " timestamp-offset=\(UInt32(truncatingIfNeeded: Int64((timelineStart * 90_000).rounded())))"
    }

    /// The video source's caps: Annex-B access units.
    static let videoCaps = "video/x-h264,stream-format=(string)byte-stream,alignment=(string)au"

    /// The audio source's caps for an AudioSpecificConfig (raw AAC frames; the config goes to the SDP).
    static func audioCaps(audioSpecificConfig config: [UInt8]) throws -> String {
        let parsed = try AudioSpecificConfig(parsing: config)
        let digits = Array("0123456789abcdef")
        let hex = String(config.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        return "audio/mpeg,mpegversion=(int)4,stream-format=(string)raw,codec_data=(buffer)\(hex),"
            + "rate=(int)\(parsed.outputSampleRate),channels=(int)\(parsed.outputChannels)"
    }
}
#endif
