#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Collects the messages libav* logs on the calling thread while a block runs, so that a failed
/// `avcodec_open2` can report *why* (e.g. "Cannot load libcuda.so.1") and not only its error code.
///
/// Messages logged on other threads still go to FFmpeg's default logger.
enum FFmpegLogCapture {
    private final class Capture {
        let thread: pthread_t
        let maximumLevel: Int32
        var lines: [String] = []
        init(thread: pthread_t, maximumLevel: Int32) {
            self.thread = thread
            self.maximumLevel = maximumLevel
        }
    }

    /// The captures running now, and whether the callback is installed; `Capture.lines` is also
    /// written only inside it.
    private static let state = Locked((captures: [Capture](), installed: false))

    private static func install() {
        av_log_set_callback { context, level, format, arguments in
            FFmpegLogCapture.log(context, level, format, arguments)
        }
    }

    private static func log(
        _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?,
        _ arguments: CVaListPointer?
    ) {
        let me = pthread_self()
        let capture = state.withLock { $0.captures.last { pthread_equal($0.thread, me) != 0 } }
        guard let capture else {
            if let arguments { av_log_default_callback(context, level, format, arguments) }
            return
        }
        guard level <= capture.maximumLevel, let format, let arguments else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if !line.isEmpty {
            state.withLock { _ in capture.lines.append(line) }
        }
    }

    /// Runs `body`, returning its result and the warning/error lines FFmpeg logged on this thread meanwhile
    /// (lines up to `maximumLevel`, e.g. `AV_LOG_INFO` to also collect what a device lists).
    static func capturing<R, E: Error>(
        maximumLevel: Int32 = AV_LOG_WARNING,
        _ body: () throws(E) -> R
    ) throws(E) -> (R, [String]) {
        let capture = Capture(thread: pthread_self(), maximumLevel: maximumLevel)
        state.withLock { state in
            if !state.installed {
                install()
                state.installed = true
            }
            state.captures.append(capture)
        }
        defer { state.withLock { $0.captures.removeAll { $0 === capture } } }
        let result = try body()
        let lines = state.withLock { _ in capture.lines }
        return (result, lines)
    }
}
#endif
