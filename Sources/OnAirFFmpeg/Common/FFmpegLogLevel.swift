#if os(Linux)
import CFFmpeg

/// How much libav* prints on stderr by itself (its own statistics, warnings, errors).
package enum FFmpegLogLevel: Sendable {
    /// Errors only: the default for the command-line tool, whose own errors already carry FFmpeg's message.
    case errors
    /// Warnings and errors.
    case warnings
    /// Everything FFmpeg reports at info level (encoder statistics, stream details).
    case verbose

    /// Makes this the process-wide level.
    package func apply() {
        switch self {
        case .errors: av_log_set_level(AV_LOG_ERROR)
        case .warnings: av_log_set_level(AV_LOG_WARNING)
        case .verbose: av_log_set_level(AV_LOG_INFO)
        }
    }
}
#endif
