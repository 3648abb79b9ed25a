#if os(Linux)
import CFFmpeg
import OnAirCore

/// A libav* call failed; carries FFmpeg's own message for the error code.
package struct FFmpegError: OnAirError, Equatable {
    /// The negative AVERROR code FFmpeg returned.
    package let code: Int32
    /// What OnAir was doing, e.g. "avformat_open_input(clip.mp4)".
    package let operation: String
    /// FFmpeg's text for `code` (what `av_err2str` prints).
    package let message: String

    /// Creates an error for `code` returned by `operation`, looking up FFmpeg's message.
    package init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.message = FFmpegError.message(for: code)
    }

    /// FFmpeg's message for an error code.
    package static func message(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = buffer.count
        return buffer.withUnsafeMutableBufferPointer { pointer in
            String(cString: onair_err2str(code, pointer.baseAddress, count))
        }
    }

    /// Whether this is FFmpeg's end-of-file code.
    package var isEndOfFile: Bool { code == onair_averror_eof() }
    /// Whether this is EAGAIN: the codec needs more input or has output to drain first.
    package var isTryAgain: Bool { code == onair_averror_eagain() }

    /// "OPERATION: MESSAGE", with FFmpeg's message for the code.
    package var description: String { "\(operation): \(message)" }
}

/// Throws an `FFmpegError` when a libav* return code is negative; returns it otherwise.
@discardableResult
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(code: code, operation: operation()) }
    return code
}
#endif
