#if os(Linux)
import Foundation
import Synchronization
import OnAir

/// Shows a session's statistics once a second: one rewritten line on stderr and, optionally,
/// the same as JSON lines in a file.
final class StatisticsPrinter: Sendable {
    /// The line and the file, written by one caller at a time.
    private let output: Mutex<(progress: ProgressLine, json: JSONLinesFile?)>
    private let label: String
    private let showsNetwork: Bool

    /// `jsonPath` receives one JSON object per line; nil writes none.
    /// `network` adds the network outputs' connection counters to the line.
    init(label: String, jsonPath: String?, network: Bool = false) throws {
        self.label = label
        self.showsNetwork = network
        output = Mutex((ProgressLine(), try jsonPath.map(JSONLinesFile.init(path:))))
    }

    func show(_ stats: LiveStatistics) {
        let line =
            String(
                format:
                    "%@ %6.1fs | fps in %5.1f out %5.1f | dropped %d | video %5.0f kb/s audio %4.0f kb/s | enc %5.1f ms | queues v%d a%d s%d | mem %.0f MB",
                label, stats.elapsed, stats.fpsIn, stats.fpsOut, stats.droppedFrames,
                Double(stats.videoBitRate) / 1000, Double(stats.audioBitRate) / 1000, stats.encodeLatencyMs,
                stats.videoQueue, stats.audioQueue, stats.sinkQueue, Double(stats.residentBytes) / 1_048_576)
            + (showsNetwork
                ? String(
                    format: " | net up %d reconnects %d offline %.1fs queue %.2fs skips %d | target %d kb/s",
                    stats.networkConnected, stats.reconnects, stats.offlineSeconds,
                    stats.networkQueueSeconds, stats.backlogSkips, stats.targetBitRate / 1000)
                    + (stats.linkEstimate.map {
                        String(format: " link %.2f Mb/s delay %.2fs", Double($0) / 1_000_000, stats.queueingDelay)
                    } ?? "")
                : "")
        output.withLock { output in
            output.progress.update(line)
            output.json?.append(stats)
        }
    }

    /// Ends the display; `final` (the totals after the encoders drained) goes to the JSON file
    /// only, since its per-second rates would describe the drain, not the stream.
    func end(final: LiveStatistics?) {
        output.withLock { output in
            if let final { output.json?.append(final) }
            output.progress.end()
            output.json?.close()
        }
    }
}
#endif
