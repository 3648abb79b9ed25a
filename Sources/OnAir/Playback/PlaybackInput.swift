import Foundation

/// How the player opens an input: which URLs are live, and the libavformat options that keep
/// a live input's delay low.
public enum PlaybackInput {
    /// URL schemes that carry a live stream (as opposed to a file or an HLS/HTTP resource).
    public static let liveSchemes: Set<String> = ["udp", "rtp", "srt", "tcp", "rtmp", "rtmps", "rtsp"]

    /// The URL's scheme in lower case ("udp", "http", …), or nil for a plain path.
    public static func scheme(of url: String) -> String? {
        guard let range = url.range(of: "://") else { return nil }
        return url[..<range.lowerBound].lowercased()
    }

    /// Whether `url` is a live stream that should be opened with low-delay options.
    public static func isLive(_ url: String) -> Bool {
        scheme(of: url).map { liveSchemes.contains($0) } ?? false
    }

    /// Demuxer and protocol options for `url`: for live inputs no demuxer buffering and no parser
    /// (`fflags=nobuffer+noparse+nofillin`), a short probe (`probesize`, `analyzeduration`), and for UDP a receive
    /// FIFO whose overruns drop data (counted as damaged packets) instead of failing.
    public static func options(for url: String) -> [String: String] {
        guard let scheme = scheme(of: url) else { return [:] }
        var options: [String: String] = [:]
        if liveSchemes.contains(scheme) || scheme == "http" || scheme == "https" {
            options["fflags"] = "nobuffer"
        }
        if liveSchemes.contains(scheme) {
            // No parser between demuxer and decoder: the parser holds each frame back until the
            // next one starts (one frame of delay). Live senders put one access unit in each
            // PES/FLV packet, which the decoder takes as it is.
            options["fflags"] = "nobuffer+noparse+nofillin"
            options["probesize"] = "500000"
            options["analyzeduration"] = "1000000"
        }
        if scheme == "udp" || scheme == "rtp" {
            options["fifo_size"] = "100000"  // in 188-byte units: ~18 MB
            options["overrun_nonfatal"] = "1"
            options["buffer_size"] = "4194304"
        }
        return options
    }
}
