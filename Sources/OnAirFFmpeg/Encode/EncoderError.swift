#if os(Linux)
import OnAirCore

/// Why an encoder could not be created or could not encode.
package enum EncoderError: OnAirError {
    /// The settings were rejected before anything was opened.
    case invalidSettings(SettingsError)
    /// A libav* call failed.
    case ffmpeg(FFmpegError)
    /// A frame or buffer handed to `encode` does not match its declared layout.
    case invalidInput(field: String, problem: String)
    /// The named encoder exists but cannot open here (FFmpeg's reason), or is not in this FFmpeg build.
    case unavailable(encoder: String, reason: String)
    /// `auto` found no encoder that opens; lists why each candidate failed.
    case noEncoderOpened(EncoderSelection)
    /// `encode` was called after `flush`.
    case finished

    /// The failure in words, with FFmpeg's message where there is one.
    package var description: String {
        switch self {
        case .invalidSettings(let error): return error.description
        case .ffmpeg(let error): return error.description
        case .invalidInput(let field, let problem): return "invalid input \(field): \(problem)"
        case .unavailable(let encoder, let reason): return "encoder \(encoder) is unavailable: \(reason)"
        case .noEncoderOpened(let selection): return "no H.264 encoder opens here: \(selection)"
        case .finished: return "the encoder was flushed; create a new one to encode more"
        }
    }

    /// True for `invalidSettings`: the caller asked for settings the encoder refuses.
    package var isInvalidSettings: Bool {
        if case .invalidSettings = self { return true }
        return false
    }
}

/// Like `check(_:_:)` but throws the error wrapped as an `EncoderError`.
@discardableResult
func checkEncoder(_ code: Int32, _ operation: @autoclosure () -> String) throws(EncoderError) -> Int32 {
    if code < 0 { throw EncoderError.ffmpeg(FFmpegError(code: code, operation: operation())) }
    return code
}
#endif
