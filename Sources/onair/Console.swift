#if os(Linux)
import Foundation

/// Writes status lines to stderr, keeping stdout for results.
enum Console {
    /// Prints one line on stderr.
    static func status(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A progress display that rewrites one line on stderr (or prints plain lines when stderr is not a terminal).
final class ProgressLine {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var last = ""

    /// Shows `text` as the current state.
    func update(_ text: String) {
        last = text
        if isTerminal {
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        } else {
            Console.status(text)
        }
    }

    /// Ends the display, leaving the last state on its own line.
    func end() {
        if isTerminal && !last.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
#endif
