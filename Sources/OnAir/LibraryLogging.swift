#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Controls what the media libraries underneath OnAir print by themselves.
public enum LibraryLogging {
    /// Only their errors (the default for `onair`), or with `verbose` their informational lines too.
    public static func configure(verbose: Bool) {
        #if canImport(OnAirFFmpeg)
        (verbose ? FFmpegLogLevel.verbose : .errors).apply()
        #endif
    }
}
