#if canImport(OnAirPlayback)
import Foundation
import OnAirPlayback

/// Plays a URL or file the way `onair play` does: opens the input, shows the picture in a window
/// and plays the sound when `window` is given (and a display exists), and runs until the input
/// ends, the duration is reached, the window is closed, `shouldStop` gives a reason, or a live
/// input stalls past its duration; nothing decoded within `openTimeout` is an error.
public enum Playback {
    /// How a playback ended.
    public struct Outcome: Sendable {
        /// Why it stopped, in words ("input ended", "done", "window closed", "interrupted", …).
        public var reason: String
        /// What was received, decoded, shown and played.
        public var report: PlaybackReport
        /// The last statistics.
        public var statistics: PlaybackStatistics
    }

    /// Runs `configuration` to its end. `window` nil decodes only; with options, a window opens
    /// when it can (`notes` hears why not, and the run goes on headless). `everySecond` sees the
    /// statistics; `shouldStop` is asked once a second.
    public static func run(
        _ configuration: Player.Configuration, window: ScreenPlayer.Options?,
        notes: (String) -> Void = { _ in },
        everySecond: (PlaybackStatistics) -> Void = { _ in },
        shouldStop: () -> String? = { nil }
    ) throws -> Outcome {
        var configuration = configuration
        var screen: ScreenPlayer?
        if let window {
            let opened = ScreenPlayer.openIfPossible(options: window)
            opened.notes.forEach(notes)
            screen = opened.screen
            configuration.reconnect = screen != nil
        }
        let player = try Player(configuration: configuration)
        player.sink = screen
        player.start()
        var stopReason = "input ended"
        let live = PlaybackInput.isLive(configuration.url)
        var noData = false
        // Once a second: show the statistics and say whether to stop (and why).
        func check(_ stats: PlaybackStatistics) -> Bool {
            everySecond(stats)
            if let reason = shouldStop() {
                stopReason = reason
                return true
            }
            if let since = player.secondsSinceFirstFrame {
                // A stalled live input must not outlast the duration by much (a file is never
                // stalled: on a busy machine it just decodes slowly).
                if let duration = configuration.duration, since > duration + 2, live {
                    stopReason = "duration reached (input stalled)"
                    return true
                }
            } else if player.secondsSinceStart > configuration.openTimeout {
                noData = true
                return true
            }
            return false
        }
        if let screen {
            if screen.run(player: player, every: check) == .quit { stopReason = "window closed" }
        } else {
            while !player.wait(timeout: 1) {
                if check(player.statistics()) { break }
            }
        }
        player.stop()
        if noData { throw PlaybackError.noData(url: configuration.url, seconds: configuration.openTimeout) }
        if stopReason == "input ended", configuration.duration != nil, player.error == nil { stopReason = "done" }
        let last = player.statistics()
        if let error = player.error { throw error }
        var report = player.report()
        report.display = screen?.displayReport()
        return Outcome(reason: stopReason, report: report, statistics: last)
    }
}
#endif
