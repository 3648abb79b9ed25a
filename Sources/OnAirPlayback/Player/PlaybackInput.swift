#if os(Linux)
import Foundation

/// How the player opens an input: which URLs are live, and the libavformat options that keep
/// a live input's delay low.
package enum PlaybackInput {
    /// URL schemes that carry a live stream (as opposed to a file or an HLS/HTTP resource).
    public static let liveSchemes: Set<String> = ["udp", "rtp", "srt", "tcp", "rtmp", "rtmps", "rtsp"]

    /// The URL's scheme in lower case ("udp", "http", …), or nil for a plain path.
    public static func scheme(of url: String) -> String? {
        guard let range = url.range(of: "://") else { return nil }
        return url[..<range.lowerBound].lowercased()
    }

    /// Whether `url` may turn out to be live once opened: HTTP(S), which serves files and live
    /// streams alike (the player tells them apart by the response: no length and no seeking).
    public static func mayBeLive(_ url: String) -> Bool {
        scheme(of: url).map { $0 == "http" || $0 == "https" } ?? false
    }

    /// Whether `url` is a live stream that should be opened with low-delay options.
    public static func isLive(_ url: String) -> Bool {
        scheme(of: url).map { liveSchemes.contains($0) } ?? false
    }

    /// Demuxer and protocol options for `url`: for live inputs no parser between demuxer and
    /// decoder (`fflags=noparse+nofillin`), no frame-rate probe (`fpsprobesize=0`), a short probe
    /// of MPEG-TS inputs (`probesize`, `analyzeduration`), and for UDP a receive FIFO whose overruns drop data (counted as damaged
    /// packets) instead of failing.
    ///
    /// `fflags=nobuffer` is deliberately not set: it makes `avformat_find_stream_info` throw away
    /// every packet it reads while probing (over RTMP that was the first one to two seconds of
    /// video). The probed packets are decoded at once after the probe, so keeping them costs a
    /// short burst at start, not lasting delay: the player decodes as fast as packets arrive.
    public static func options(for url: String) -> [String: String] {
        guard let scheme = scheme(of: url) else { return [:] }
        var options: [String: String] = [:]
        if liveSchemes.contains(scheme) {
            // No parser between demuxer and decoder: the parser holds each frame back until the
            // next one starts (one frame of delay). Live senders put one access unit in each
            // PES/FLV packet, which the decoder takes as it is.
            options["fflags"] = "noparse+nofillin"
            if scheme == "rtsp" {
                // RTP carries H.264 one NAL unit (or fragment) per packet: the parser puts the
                // access units back together (the decoder fails on parts of one).
                options["fflags"] = "nofillin"
            }
            // The frame rate comes from the stream's timing, not from 20 probed frames.
            options["fpsprobesize"] = "0"
            if scheme != "rtmp" && scheme != "rtmps" {
                // MPEG-TS lists its streams in the PMT, and the MPEG-TS demuxer probes for the
                // whole analyze duration whatever it finds, so keep that short. FLV (RTMP) creates
                // a stream at its first packet — video only at the next keyframe when joining a
                // live stream — and its probe ends as soon as every stream has been seen, so it
                // keeps FFmpeg's default limits, which wait long enough for that keyframe.
                options["probesize"] = "500000"
                options["analyzeduration"] = "500000"
            }
        }
        if scheme == "rtsp" {
            // RTP over UDP as FFmpeg's RTSP demuxer asks first (TCP when the server refuses UDP;
            // `?tcp` at the end of the URL asks for interleaved TCP), with a large receive buffer.
            options["buffer_size"] = "4194304"
        }
        if scheme == "udp" || scheme == "rtp" {
            options["fifo_size"] = "100000"  // in 188-byte units: ~18 MB
            options["overrun_nonfatal"] = "1"
            options["buffer_size"] = "4194304"
        }
        return options
    }
}
#endif
