#if os(Linux)
import OnAirBitstream
import OnAirCore

/// The payloading pipeline gst-rtsp-server builds for each RTSP client, and the caps of its
/// sources: H.264 per RFC 6184 (packetization-mode 1, parameter sets in the SDP and before every
/// IDR), H.265 per RFC 7798 (fragmentation units, `sprop-vps/sps/pps` in the SDP and VPS/SPS/PPS
/// before every IDR) and AAC per RFC 3640 (mpeg4-generic, AAC-hbr).
enum ServeRTSPPipeline {
    /// The served path.
    static let path = "/live"

    /// The gst-launch description for the given streams: `appsrc name=video` → `rtph264pay` or
    /// `rtph265pay` as `codec` says (pay0, pt 96), `appsrc name=audio` → `rtpmp4gpay` (pay1 or
    /// pay0, pt 97). The sources are live, in time, never block and keep what they are given (the
    /// feed bounds them). With a `timelineStart` (seconds) the video's RTP timestamps start there
    /// (90 kHz, modulo 2^32).
    ///
    /// H.264 needs no `config-interval`: the encode has SPS/PPS before every IDR and the payloader
    /// puts them in the SDP. H.265 has `config-interval=-1`: the payloader sends the VPS/SPS/PPS it
    /// has seen before every IDR too, so a client that joins late or ignores the SDP's `sprop-*`
    /// still finds them in band at its first keyframe.
    static func launch(streams: Set<MediaType>, codec: MediaCodec = .h264, timelineStart: Double = 0) -> String {
        var parts: [String] = []
        let source = "is-live=true format=time do-timestamp=false block=false max-bytes=0"
        if streams.contains(.video) {
            let base = timestampOffset(timelineStart)
            let payloader =
                codec == .h265 ? "rtph265pay name=pay0 pt=96 config-interval=-1" : "rtph264pay name=pay0 pt=96 config-interval=0"
            parts.append("appsrc name=video \(source) ! \(payloader) aggregate-mode=zero-latency\(base)")
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

    /// The video source's caps for `codec`: Annex-B access units.
    static func videoCaps(codec: MediaCodec) -> String {
        "video/x-\(codec == .h265 ? "h265" : "h264"),stream-format=(string)byte-stream,alignment=(string)au"
    }

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
