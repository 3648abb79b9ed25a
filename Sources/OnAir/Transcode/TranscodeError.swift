#if canImport(OnAirFFmpeg)
import OnAirCore

/// Why a transcode could not start.
package enum TranscodeError: OnAirError, Equatable {
    /// The input has none of the streams asked for.
    case nothingToEncode(String)

    /// The input and what it lacks.
    public var description: String {
        switch self {
        case .nothingToEncode(let input): return "\(input): no video or audio stream to encode"
        }
    }
}
#endif
