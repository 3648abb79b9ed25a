#if os(Linux)
import OnAirCore

/// Why `onair play` could not receive, decode or write.
package enum PlaybackError: OnAirError, Equatable {
    /// The `-o` output's extension is not one the player writes.
    case unknownOutput(String)
    /// Nothing was decoded from the input within the time allowed.
    case noData(url: String, seconds: Double)
    /// The input has neither an H.264/other video stream nor an audio stream to decode.
    case nothingToDecode(String)
    /// Writing the decoded output failed.
    case writeFailed(path: String, reason: String)

    /// The failure in words, naming the input or output.
    public var description: String {
        switch self {
        case let .unknownOutput(path):
            return "\(path): unknown play output (use .y4m for decoded video, .wav for decoded audio, .mp4/.mov/.ts/.mkv for a copy)"
        case let .noData(url, seconds):
            return "\(url): nothing decoded within \(String(format: "%g", seconds)) s"
        case let .nothingToDecode(url):
            return "\(url): no video or audio stream to decode"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        }
    }

    /// True for an output the player does not know.
    public var isInvalidSettings: Bool {
        if case .unknownOutput = self { return true }
        return false
    }
}
#endif
