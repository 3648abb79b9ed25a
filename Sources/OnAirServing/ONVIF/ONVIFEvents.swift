#if os(Linux)
import Dispatch
import Foundation
import OnAirCore

/// The subscriptions of the ONVIF events service, shared between the HTTP connections and the
/// motion detector: `ONVIFSubscriptions` in a lock, and PullMessages' long poll.
///
/// The serve HTTP listener runs libmicrohttpd with a thread per connection (a connection cannot
/// be suspended there: its thread is the one that would wait anyway), so a waiting PullMessages
/// holds its connection's thread on a semaphore of its own until a change is published, its
/// timeout passes (at most `maximumTimeout`), a newer pull on the same subscription starts, or
/// the service closes. The waits are bounded by the subscriptions: at most
/// `ONVIFSubscriptions.maximumSubscriptions` (16) open, one waiting pull each.
package final class ONVIFEvents: Sendable {
    /// The longest PullMessages wait granted, in seconds (a longer Timeout is shortened).
    package static let maximumTimeout = 60.0

    private struct State {
        var subscriptions: ONVIFSubscriptions
        var waiters: [String: DispatchSemaphore] = [:]
        var closed = false
    }

    private let state: Locked<State>
    private let uptime: @Sendable () -> Double

    /// No subscriptions yet; `wall` stamps the first state, `uptime` (monotonic seconds) times
    /// expiries and waits.
    package init(
        wall: Date = Date(), uptime: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime },
        limits: (ONVIFSubscriptions) -> ONVIFSubscriptions = { $0 }
    ) {
        state = Locked(State(subscriptions: limits(ONVIFSubscriptions(start: wall))))
        self.uptime = uptime
    }

    /// The monotonic time now.
    package var now: Double { uptime() }

    /// Runs `body` on the subscriptions, under the lock.
    package func withSubscriptions<Value>(
        _ body: (inout ONVIFSubscriptions) throws(ONVIFSubscriptions.Refusal) -> Value
    ) throws(ONVIFSubscriptions.Refusal) -> Value {
        let outcome = state.withLock { state -> Result<Value, ONVIFSubscriptions.Refusal> in
            do throws(ONVIFSubscriptions.Refusal) {
                return .success(try body(&state.subscriptions))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// PullMessages waiting now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// The expiry of subscription `id` on the monotonic clock, nil when unknown.
    package func expiry(of id: String) -> Double? { state.withLock { $0.subscriptions.expiry(of: id) } }

    /// Motion started (`isMotion`) or ended at `at`: queued for every subscription, waiting pulls woken.
    package func publish(isMotion: Bool, at: Date) {
        let woken = state.withLock { state in
            state.subscriptions.publish(isMotion: isMotion, at: at)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.signal() }
    }

    /// PullMessages on `id`: up to `limit` messages, waiting up to `timeout` seconds (capped at
    /// `maximumTimeout`) while there are none. Empty when the wait ends without any, when a newer
    /// pull on `id` started, or when the service closed.
    package func pull(_ id: String, timeout: Double, limit: Int) throws(ONVIFSubscriptions.Refusal) -> [ONVIFSubscriptions.Message] {
        let deadline = uptime() + min(max(timeout.isFinite ? timeout : 0, 0), Self.maximumTimeout)
        let semaphore = DispatchSemaphore(value: 0)
        let ticket = try withSubscriptions { (subscriptions) throws(ONVIFSubscriptions.Refusal) in
            try subscriptions.beginPull(id, now: uptime())
        }
        // An older pull on `id` ends now, empty (its ticket is no longer current).
        state.withLock { $0.waiters.removeValue(forKey: id) }?.signal()
        while true {
            let now = uptime()
            enum Step { case answer([ONVIFSubscriptions.Message]), wait, refused }
            let step = state.withLock { state -> Step in
                guard !state.closed, state.subscriptions.isCurrent(id, ticket: ticket) else { return .answer([]) }
                if state.subscriptions.hasMessages(id) || now >= deadline {
                    guard let taken = try? state.subscriptions.take(id, limit: limit, now: now) else { return .refused }
                    if state.waiters[id] === semaphore { state.waiters[id] = nil }
                    return .answer(taken)
                }
                state.waiters[id] = semaphore
                return .wait
            }
            switch step {
            case .answer(let messages): return messages
            case .refused: throw .unknown
            case .wait:
                // Waits are sliced to a second so an injected or stepped clock is read again.
                _ = semaphore.wait(timeout: .now() + min(max(deadline - now, 0.001), 1))
            }
        }
    }

    /// Ends every waiting pull (the server stops) and refuses further waits.
    package func close() {
        let woken = state.withLock { state in
            state.closed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.signal() }
    }
}
#endif
