#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Bounds how long a blocking libavformat network call (connect, send, close) may take.
///
/// It becomes the output's `AVIOInterruptCB`: libavformat polls it while it waits on a socket,
/// and a call fails with `AVERROR_EXIT` once the deadline set for it has passed or `cancel()`
/// was called. Set a deadline before each call; thread-safe.
package final class NetworkDeadline: Sendable {
    private let state: Locked<(deadline: Double, cancelled: Bool)>
    /// Expired or cancelled: the pending libavformat call gives up.
    private let condition: InterruptCondition

    /// Creates a deadline that never expires until `arm(seconds:)` or `cancel()`.
    package init() {
        let state = Locked((deadline: Double.infinity, cancelled: false))
        self.state = state
        condition = InterruptCondition { Self.expired(state) }
    }

    /// Lets the next calls run for at most `seconds` from now (`.infinity`: until cancelled).
    package func arm(seconds: Double) {
        state.withLock { $0.deadline = ProcessInfo.processInfo.systemUptime + seconds }
    }

    /// Makes every pending and future call give up as soon as it can.
    package func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Whether a call running now should give up.
    package var hasExpired: Bool { Self.expired(state) }

    /// The format context's interrupt callback (valid while this deadline lives).
    var callback: AVIOInterruptCB { condition.callback }

    private static func expired(_ state: Locked<(deadline: Double, cancelled: Bool)>) -> Bool {
        state.withLock { $0.cancelled || ProcessInfo.processInfo.systemUptime > $0.deadline }
    }
}
#endif
