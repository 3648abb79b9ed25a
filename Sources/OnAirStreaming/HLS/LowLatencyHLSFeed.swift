#if os(Linux)
import Foundation
import OnAirCore

/// The latest Low-Latency HLS playlist of one encode, published by its writer and read by the
/// server, whose held requests (a blocking playlist reload, a preload hint's part) wait here as
/// callbacks, not threads: `publish` answers those the new playlist satisfies, `expire` those whose
/// deadline passed. The answers are delivered off the publishing thread (the writer's, on the
/// packet path) by an injected executor. Deadlines are read on an injected monotonic clock and
/// their wake-ups come from an injected scheduler (tests run all three by hand).
package final class LowLatencyHLSFeed: Sendable {
    /// A held request: what it waits for, until when, and how it is answered (nil: its deadline passed).
    private struct Waiter: Sendable {
        var deadline: Double
        var satisfied: @Sendable (LowLatencyHLSPlaylist) -> Bool
        var answer: @Sendable (LowLatencyHLSPlaylist?) -> Void
    }

    private struct State {
        var playlist: LowLatencyHLSPlaylist?
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
        var mostHeld = 0
    }

    private let monotonic: @Sendable () -> Double
    private let schedule: @Sendable (Double, @escaping @Sendable () -> Void) -> Void
    private let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let state = Locked(State())

    /// A feed timing its waits on `monotonic` (seconds), waking up after a delay (seconds) through
    /// `schedule` and running the answers of a publish through `deliver` (default: a global
    /// dispatch queue for both).
    package init(
        monotonic: @escaping @Sendable () -> Double = AnchoredClock.systemMonotonic,
        schedule: @escaping @Sendable (Double, @escaping @Sendable () -> Void) -> Void = { delay, action in
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, delay), execute: action)
        },
        deliver: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global().async(execute: $0) }
    ) {
        self.monotonic = monotonic
        self.schedule = schedule
        self.deliver = deliver
    }

    /// The latest playlist.
    package var playlist: LowLatencyHLSPlaylist? { state.withLock { $0.playlist } }

    /// Requests held now, and the most held at once so far.
    package var held: (now: Int, most: Int) { state.withLock { ($0.waiters.count, $0.mostHeld) } }

    /// Makes `playlist` the latest and answers every held request it satisfies.
    package func publish(_ playlist: LowLatencyHLSPlaylist) {
        let ready = state.withLock { state -> [Waiter] in
            state.playlist = playlist
            let ready = state.waiters.filter { $0.value.satisfied(playlist) }
            for id in ready.keys { state.waiters[id] = nil }
            return Array(ready.values)
        }
        guard !ready.isEmpty else { return }
        deliver { for waiter in ready { waiter.answer(playlist) } }
    }

    /// Calls `answer` with the first playlist that satisfies `satisfied` (at once when the latest
    /// does), or with nil once `seconds` have passed on the monotonic clock. Returns the wait's
    /// number for `cancel` (nil when answered at once).
    @discardableResult
    package func wait(
        seconds: Double, until satisfied: @escaping @Sendable (LowLatencyHLSPlaylist) -> Bool,
        answer: @escaping @Sendable (LowLatencyHLSPlaylist?) -> Void
    ) -> Int? {
        let deadline = monotonic() + seconds
        let outcome = state.withLock { state -> (LowLatencyHLSPlaylist?, Int?) in
            if let playlist = state.playlist, satisfied(playlist) { return (playlist, nil) }
            let id = state.nextID
            state.nextID += 1
            state.waiters[id] = Waiter(deadline: deadline, satisfied: satisfied, answer: answer)
            state.mostHeld = max(state.mostHeld, state.waiters.count)
            return (nil, id)
        }
        guard let id = outcome.1 else {
            answer(outcome.0)
            return nil
        }
        schedule(seconds) { [weak self] in self?.expire() }
        return id
    }

    /// Forgets the held request `id` (its client left) without answering it.
    package func cancel(_ id: Int) {
        state.withLock { _ = $0.waiters.removeValue(forKey: id) }
    }

    /// Answers with nil every held request whose deadline has passed on the monotonic clock.
    package func expire() {
        let now = monotonic()
        let late = state.withLock { state -> [Waiter] in
            let late = state.waiters.filter { $0.value.deadline <= now }
            for id in late.keys { state.waiters[id] = nil }
            return Array(late.values)
        }
        for waiter in late { waiter.answer(nil) }
    }
}
#endif
