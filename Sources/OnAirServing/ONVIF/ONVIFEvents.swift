#if os(Linux)
import Dispatch
import Foundation
import OnAirCore

/// The subscriptions of the ONVIF events service, shared between the HTTP connections and the
/// motion detector: `ONVIFSubscriptions` in a lock, and PullMessages' long poll.
///
/// A PullMessages that finds nothing to give does not hold a thread: it leaves its answer (a
/// callback; the HTTP handler's `HTTPPendingResponse`) with the subscription, and whoever ends the
/// wait calls it — a published change, its deadline (checked by a timer on the injected clock, at
/// least every second), a newer pull on the same subscription or the subscription's end (both
/// answer the older one empty), or the service closing. The client leaving withdraws it
/// (`cancel`). At most `ONVIFSubscriptions.maximumSubscriptions` (16) wait, one per subscription.
package final class ONVIFEvents: Sendable {
    /// The longest PullMessages wait granted, in seconds (a longer Timeout is shortened).
    package static let maximumTimeout = 60.0

    /// What a pull is answered with: the messages (empty when its wait ended without any), or why not.
    package typealias Answer = @Sendable (Pulled) -> Void
    /// A pull's outcome.
    package typealias Pulled = Result<[ONVIFSubscriptions.Message], ONVIFSubscriptions.Refusal>

    private struct Waiter {
        var ticket: Int
        var deadline: Double
        var limit: Int
        var answer: Answer
    }

    private struct State {
        var subscriptions: ONVIFSubscriptions
        var waiters: [String: Waiter] = [:]
        var closed = false
    }

    private let state: Locked<State>
    private let uptime: @Sendable () -> Double
    private let timers = DispatchQueue(label: "onair.onvif.pull-deadlines")

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

    /// Runs `body` on the subscriptions, under the lock; a waiting pull whose subscription it
    /// ended (Unsubscribe) is answered empty.
    package func withSubscriptions<Value>(
        _ body: (inout ONVIFSubscriptions) throws(ONVIFSubscriptions.Refusal) -> Value
    ) throws(ONVIFSubscriptions.Refusal) -> Value {
        let (value, ended) = try withState { (state) throws(ONVIFSubscriptions.Refusal) -> (Value, [Answer]) in
            let value = try body(&state.subscriptions)
            let gone = state.waiters.filter { !state.subscriptions.isCurrent($0.key, ticket: $0.value.ticket) }
            for id in gone.keys { state.waiters[id] = nil }
            return (value, gone.values.map(\.answer))
        }
        for answer in ended { answer(.success([])) }
        return value
    }

    /// PullMessages waiting now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// The expiry of subscription `id` on the monotonic clock, nil when unknown.
    package func expiry(of id: String) -> Double? { state.withLock { $0.subscriptions.expiry(of: id) } }

    /// Motion started (`isMotion`) or ended at `at`: queued for every subscription, waiting pulls answered.
    package func publish(isMotion: Bool, at: Date) {
        let now = uptime()
        let answered = state.withLock { state in
            state.subscriptions.publish(isMotion: isMotion, at: at)
            var answered: [(Answer, Pulled)] = []
            for (id, waiter) in state.waiters where state.subscriptions.hasMessages(id) {
                state.waiters[id] = nil
                answered.append((waiter.answer, Self.take(id, waiter, from: &state.subscriptions, now: now)))
            }
            return answered
        }
        for (answer, result) in answered { answer(result) }
    }

    /// PullMessages on `id`: up to `limit` messages, waiting up to `timeout` seconds (capped at
    /// `maximumTimeout`) while there are none; `answer` hears them once, on this thread when there
    /// is no wait, else on the thread that ends it. It hears none when the wait ends without any,
    /// when a newer pull on `id` starts, when `id` ends or when the service closes. Returns the
    /// pull's ticket (for `cancel`); throws, without answering, when `id` is unknown.
    @discardableResult
    package func pull(_ id: String, timeout: Double, limit: Int, answer: @escaping Answer) throws(ONVIFSubscriptions.Refusal) -> Int {
        let now = uptime()
        let deadline = now + min(max(timeout.isFinite ? timeout : 0, 0), Self.maximumTimeout)
        typealias Begun = (ticket: Int, displaced: Answer?, result: Pulled?)
        let (ticket, displaced, result) = try withState { (state) throws(ONVIFSubscriptions.Refusal) -> Begun in
            let ticket = try state.subscriptions.beginPull(id, now: now)
            let displaced = state.waiters.removeValue(forKey: id)?.answer
            let waiter = Waiter(ticket: ticket, deadline: deadline, limit: limit, answer: answer)
            if state.closed { return (ticket, displaced, Pulled.success([])) }
            if state.subscriptions.hasMessages(id) || now >= deadline {
                return (ticket, displaced, Self.take(id, waiter, from: &state.subscriptions, now: now))
            }
            state.waiters[id] = waiter
            return (ticket, displaced, nil)
        }
        displaced?(.success([]))
        if let result {
            answer(result)
        } else {
            schedule(id, ticket: ticket, deadline: deadline, now: now)
        }
        return ticket
    }

    /// Withdraws pull `ticket` of `id` unanswered (its client left).
    package func cancel(_ id: String, ticket: Int) {
        state.withLock { state in
            if state.waiters[id]?.ticket == ticket { state.waiters[id] = nil }
        }
    }

    /// Answers every waiting pull empty (the server stops) and every later one at once.
    package func close() {
        let ended = state.withLock { state in
            state.closed = true
            defer { state.waiters = [:] }
            return state.waiters.values.map(\.answer)
        }
        for answer in ended { answer(.success([])) }
    }

    /// Looks at pull `ticket` of `id` again after a while (sliced to a second, so an injected or
    /// stepped clock is read again): answered when its deadline has passed.
    private func schedule(_ id: String, ticket: Int, deadline: Double, now: Double) {
        let wait = min(max(deadline - now, 0.001), 1)
        timers.asyncAfter(deadline: .now() + wait) { [weak self] in
            guard let self else { return }
            enum Step {
                case answered, waiting
                case due(Answer, Pulled)
            }
            let now = uptime()
            let step = state.withLock { state -> Step in
                guard let waiter = state.waiters[id], waiter.ticket == ticket else { return .answered }
                guard now >= waiter.deadline else { return .waiting }
                state.waiters[id] = nil
                return .due(waiter.answer, Self.take(id, waiter, from: &state.subscriptions, now: now))
            }
            switch step {
            case .answered: break
            case .waiting: schedule(id, ticket: ticket, deadline: deadline, now: now)
            case .due(let answer, let result): answer(result)
            }
        }
    }

    private func withState<Value>(
        _ body: (inout State) throws(ONVIFSubscriptions.Refusal) -> Value
    ) throws(ONVIFSubscriptions.Refusal) -> Value {
        let outcome = state.withLock { state -> Result<Value, ONVIFSubscriptions.Refusal> in
            do throws(ONVIFSubscriptions.Refusal) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private static func take(
        _ id: String, _ waiter: Waiter, from subscriptions: inout ONVIFSubscriptions, now: Double
    ) -> Pulled {
        do throws(ONVIFSubscriptions.Refusal) {
            return .success(try subscriptions.take(id, limit: waiter.limit, now: now))
        } catch {
            return .failure(error)
        }
    }
}
#endif
