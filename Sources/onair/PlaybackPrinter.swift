#if os(Linux)
import Foundation
import Synchronization
import OnAir

/// Shows the player's statistics once a second on stderr and, optionally, as JSON lines. Used from
/// the playing thread while it plays, then from the command's (never both at once).
final class PlaybackPrinter: Sendable {
    /// The line and the file (one caller at a time, so the lock is never contended).
    private let output: Mutex<(progress: ProgressLine, json: JSONLinesFile?)>

    /// `jsonPath` receives one JSON object per line; nil writes none.
    init(jsonPath: String?) throws {
        output = Mutex((ProgressLine(), try jsonPath.map(JSONLinesFile.init(path:))))
    }

    /// Shows one state.
    func show(_ stats: PlaybackStatistics) {
        var line = String(
            format: "play %6.1fs | frames %5d | fps %5.1f | %6.0f kb/s | errors %d | freezes %d",
            stats.elapsed, stats.frames, stats.fpsNow, stats.bitrateKbpsNow, stats.decodeErrors, stats.freezes)
        if let latency = stats.latencyMs { line += String(format: " | latency %5.1f ms", latency) }
        if stats.stalled { line += " | stalled" }
        output.withLock { output in
            output.progress.update(line)
            output.json?.append(stats)
        }
    }

    /// Ends the display and closes the JSON file.
    func end() {
        output.withLock { output in
            output.progress.end()
            output.json?.close()
        }
    }
}
#endif
