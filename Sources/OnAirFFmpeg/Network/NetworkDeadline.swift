#if os(Linux)
import CFFmpeg
import Foundation

/// Bounds how long a blocking libavformat network call (connect, send, close) may take.
///
/// It becomes the output's `AVIOInterruptCB`: libavformat polls it while it waits on a socket,
/// and a call fails with `AVERROR_EXIT` once the deadline set for it has passed or `cancel()`
/// was called. Set a deadline before each call; thread-safe.
package final class NetworkDeadline: InterruptCondition, @unchecked Sendable {
    private let lock = NSLock()
    private var deadline = Double.infinity
    private var cancelled = false

    /// Creates a deadline that never expires until `arm(seconds:)` or `cancel()`.
    package override init() {}

    /// Lets the next calls run for at most `seconds` from now (`.infinity`: until cancelled).
    package func arm(seconds: Double) {
        lock.lock()
        deadline = ProcessInfo.processInfo.systemUptime + seconds
        lock.unlock()
    }

    /// Makes every pending and future call give up as soon as it can.
    package func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    /// Whether `cancel()` was called.
    package var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Whether a call running now should give up.
    package var hasExpired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled || ProcessInfo.processInfo.systemUptime > deadline
    }

    /// Expired or cancelled: the pending libavformat call gives up.
    override var shouldInterrupt: Bool { hasExpired }
}
#endif
