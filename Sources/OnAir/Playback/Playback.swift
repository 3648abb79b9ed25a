#if canImport(OnAirPlayback)
import Foundation
import OnAirCore
import OnAirPlayback

extension Playback {
    /// Why a playback stopped.
    public enum StopReason: Sendable, Equatable, CustomStringConvertible {
        /// The input ended (a file's end, a stream closed) with no duration set.
        case inputEnded
        /// The configured duration was played.
        case durationReached
        /// A live input stalled past its duration.
        case inputStalled
        /// The window was closed.
        case windowClosed
        /// `stop()` was called or the task running it was cancelled.
        case cancelled
        /// A signal asked the process to stop (SIGINT or SIGTERM).
        case interrupted(signal: Int32)

        /// The reason in words, for the final status line.
        public var description: String {
            switch self {
            case .inputEnded: return "input ended"
            case .durationReached: return "done"
            case .inputStalled: return "duration reached (input stalled)"
            case .windowClosed: return "window closed"
            case .cancelled: return "cancelled"
            case .interrupted(let signal): return signal == SIGINT ? "interrupted" : "terminated"
            }
        }
    }
}

/// `Playback.StopReason` by its short name, inside the package.
package typealias PlaybackStopReason = Playback.StopReason

extension Playback {
    /// Something a playback reports.
    public enum Event: Sendable {
        /// The statistics of the last second, once a second.
        case statistics(PlaybackStatistics)
        /// A remark worth a line (why no window opened, a reconnect).
        case note(String)
        /// The playback stopped (the last event).
        case stopped(StopReason)
    }
}

/// `Playback.Event` by its short name, inside the package.
package typealias PlaybackEvent = Playback.Event

/// Plays a URL or file the way `onair play` does: opens the input, shows the picture in a window
/// and plays the sound when `window` is given (and a display exists), and runs until the input
/// ends, the duration is reached, the window is closed, `stop` is called or the task is
/// cancelled, or a live input stalls past its duration; nothing decoded within the
/// configuration's `openTimeout` is an error.
///
/// ```swift
/// let playback = Playback(Player.Configuration(url: "clip.mp4"))
/// let outcome = try await playback.run()
/// ```
public final class Playback: Sendable {
    /// How a playback ended.
    public struct Outcome: Sendable {
        /// Why it stopped.
        public var reason: StopReason
        /// What was received, decoded, shown and played.
        public var report: PlaybackReport
        /// The last statistics.
        public var statistics: PlaybackStatistics
    }

    /// What is played and how.
    public let configuration: Player.Configuration
    /// The window's options, or nil to decode only.
    public let window: ScreenPlayer.Options?
    private let fanOut: EventFanOut<Event>
    private let stopRequest = Locked<StopReason?>(nil)

    /// A playback of `configuration`, in a window with `window` (nil: decode only). `onEvent`
    /// hears every event on the playing thread (keep it short); `events()` gives them as a sequence.
    public init(
        _ configuration: Player.Configuration, window: ScreenPlayer.Options? = nil,
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.window = window
        fanOut = EventFanOut(
            handler: onEvent,
            kinds: EventKinds(
                isStatistics: {
                    if case .statistics = $0 { return true }
                    return false
                },
                isPinned: { _ in false }))
    }

    /// The events from now on, until the playback stops: one sequence per call, notes and the
    /// stop never dropped, statistics coalesced to the newest for a reader that falls behind.
    public func events() -> EventStream<Event> { fanOut.stream() }

    /// Asks the playback to stop (as `reason`), from any thread; `run` returns within a second.
    public func stop(reason: StopReason = .cancelled) {
        stopRequest.withLock {
            if $0 == nil { $0 = reason }
        }
    }

    /// Plays to the end on a thread of its own (the window's too), off the cooperative pool;
    /// cancelling the task stops it (`.cancelled`) within a second.
    public func run() async throws -> Outcome {
        try await withTaskCancellationHandler {
            try await OffPool.run("onair.playback") { try self.play() }
        } onCancel: {
            stop(reason: .cancelled)
        }
    }

    private func play() throws -> Outcome {
        defer { fanOut.finish() }
        var configuration = configuration
        var screen: ScreenPlayer?
        if let window {
            let opened = ScreenPlayer.openIfPossible(options: window)
            for note in opened.notes { fanOut.send(.note(note)) }
            screen = opened.screen
            configuration.reconnect = screen != nil
        }
        let player = try Player(configuration: configuration)
        player.sink = screen
        player.start()
        var stopReason = StopReason.inputEnded
        let live = PlaybackInput.isLive(configuration.url)
        var noData = false
        // Once a second: send the statistics and say whether to stop (and why).
        func check(_ stats: PlaybackStatistics) -> Bool {
            fanOut.send(.statistics(stats))
            if let reason = stopRequest.current {
                stopReason = reason
                return true
            }
            if let since = player.secondsSinceFirstFrame {
                // A stalled live input must not outlast the duration by much (a file is never
                // stalled: on a busy machine it just decodes slowly).
                if let duration = configuration.duration?.inSeconds, since > duration + 2, live {
                    stopReason = .inputStalled
                    return true
                }
            } else if player.secondsSinceStart > configuration.openTimeout.inSeconds {
                noData = true
                return true
            }
            return false
        }
        if let screen {
            if screen.run(player: player, every: check) == .quit { stopReason = .windowClosed }
        } else {
            while !player.wait(timeout: 1) {
                if check(player.statistics()) { break }
            }
        }
        player.stop()
        if noData { throw PlaybackError.noData(url: configuration.url, seconds: configuration.openTimeout.inSeconds) }
        if stopReason == .inputEnded, configuration.duration != nil, player.error == nil { stopReason = .durationReached }
        let last = player.statistics()
        if let error = player.error { throw error }
        var report = player.report()
        report.display = screen?.displayReport()
        fanOut.send(.stopped(stopReason))
        return Outcome(reason: stopReason, report: report, statistics: last)
    }
}
#endif
