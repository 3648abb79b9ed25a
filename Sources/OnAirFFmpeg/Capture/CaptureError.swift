#if os(Linux)
import CFFmpeg
import OnAirCore

/// Why a device or file source could not start, or why it stopped.
package enum CaptureError: OnAirError, Equatable {
    /// libavformat/libavdevice could not open the source; carries FFmpeg's error and the lines it logged.
    case openFailed(source: String, error: FFmpegError, log: [String])
    /// Reading or decoding failed after capture had started.
    case readFailed(source: String, error: FFmpegError)
    /// The source opened but has no stream of the requested kind.
    case missingStream(source: String, mediaType: MediaType)
    /// Opening took longer than allowed (the device never answered).
    case openTimedOut(source: String, seconds: Double)
    /// `start` was called while the source was already running.
    case alreadyStarted(source: String)
    /// A setting is out of range or inconsistent.
    case invalidConfiguration(source: String, problem: String)
    /// libavdevice (capture devices) could not be loaded; carries the loader's reason.
    case deviceLibraryUnavailable(String)

    /// The failure in words, naming the device or file.
    package var description: String {
        switch self {
        case .openFailed(let source, let error, let log):
            let details = log.isEmpty ? "" : " (" + log.joined(separator: "; ") + ")"
            return "cannot open \(source): \(error.message)\(details)"
        case .readFailed(let source, let error):
            return "capture from \(source) failed: \(error.description)"
        case .missingStream(let source, let mediaType):
            return "\(source) has no \(mediaType.rawValue) stream"
        case .openTimedOut(let source, let seconds):
            return "opening \(source) did not finish within \(seconds) s"
        case .alreadyStarted(let source):
            return "\(source) is already capturing; stop it before starting again"
        case .invalidConfiguration(let source, let problem):
            return "invalid settings for \(source): \(problem)"
        case .deviceLibraryUnavailable(let reason):
            return "capture devices need libavdevice, which could not be loaded (\(reason)); install libavdevice (scripts/setup.sh)"
        }
    }
}

extension FFmpegError {
    /// `error` itself when it is an FFmpegError, else an EINVAL error whose operation is its text.
    static func wrapping(_ error: any Error) -> FFmpegError {
        error as? FFmpegError ?? FFmpegError(code: onair_averror(22), operation: "\(error)")
    }
}
#endif
