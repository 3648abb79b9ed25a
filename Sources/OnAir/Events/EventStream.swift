import Foundation
import OnAirCore

/// The events of a running session or playback for one subscriber, in order, as an
/// `AsyncSequence` (`for await event in session.events()`). Nothing that matters is lost to a
/// reader that falls behind: failures, connection changes, bitrate changes, viewers, notices and
/// the stop are all kept, in the order they happened; only statistics are coalesced — a reader
/// that was away gets the newest once it reads again. A reader that never reads costs bounded
/// memory: past `capacity` kept events the oldest that is not a failure goes (an output fails
/// once, so those are bounded by the outputs), and `dropped` counts them.
public struct EventStream<Event: Sendable>: AsyncSequence, Sendable {
    /// The element: one event.
    public typealias Element = Event

    /// Events kept for a reader that falls behind, statistics aside.
    public static var capacity: Int { 4096 }

    let buffer: EventBuffer<Event>

    /// Events that had to go because more than `capacity` waited unread (0 for a reader that keeps up).
    public var dropped: Int { buffer.dropped }

    /// The iterator: `next()` suspends until an event comes, and ends with the session or when
    /// the task that reads is cancelled.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: EventBuffer<Event>

        /// The next event, or nil when the session has ended (or the reading task was cancelled).
        public mutating func next() async -> Event? { await buffer.next() }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer) }
}

/// A session's events (see `EventStream` for what a reader that falls behind keeps).
package typealias SessionEventStream = EventStream<SessionEvent>

/// How a stream treats its kind of event: which are statistics (only the newest kept) and which
/// stay when a queue overflows (failures).
struct EventKinds<Event: Sendable>: Sendable {
    let isStatistics: @Sendable (Event) -> Bool
    let isPinned: @Sendable (Event) -> Bool
}

/// One subscriber's queue behind an `EventStream` (see there for what is kept). Any number of
/// iterators may read it at once: each event goes to one of them, the readers waiting in the
/// order they came, and the end reaches every one of them.
///
final class EventBuffer<Event: Sendable>: Sendable {
    private struct State {
        var queue: [Event] = []
        var head = 0
        var statistics: Event?
        var waiters: [CheckedContinuation<Event?, Never>] = []
        var finished = false
        var droppedCount = 0
        var onTermination: (@Sendable () -> Void)?

        /// The oldest kept event, then the newest statistics.
        mutating func take() -> Event? {
            if head < queue.count {
                let event = queue[head]
                head += 1
                if head == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    head = 0
                }
                return event
            }
            defer { statistics = nil }
            return statistics
        }

        /// Drops the oldest kept event that is not pinned (a failure).
        mutating func dropOldest(_ kinds: EventKinds<Event>) {
            let index = queue[head...].firstIndex { !kinds.isPinned($0) }
            guard let index else { return }
            queue.remove(at: index)
            droppedCount += 1
        }
    }
    private let state = Locked(State())
    private let capacity: Int
    private let kinds: EventKinds<Event>

    /// Called once when the reader goes away (cancelled) or the stream ends.
    var onTermination: (@Sendable () -> Void)? {
        get { state.withLock { $0.onTermination } }
        set { state.withLock { $0.onTermination = newValue } }
    }

    init(capacity: Int, kinds: EventKinds<Event>) {
        self.capacity = max(1, capacity)
        self.kinds = kinds
    }

    var dropped: Int { state.withLock { $0.droppedCount } }

    /// Readers waiting for an event now.
    var waitingReaders: Int { state.withLock { $0.waiters.count } }

    /// Adds an event (from any thread): hands it to a waiting reader or keeps it.
    func add(_ event: Event) {
        let waiter: CheckedContinuation<Event?, Never>? = state.withLock { state in
            guard !state.finished else { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            if kinds.isStatistics(event) {
                state.statistics = event
            } else {
                state.queue.append(event)
                if state.queue.count - state.head > capacity { state.dropOldest(kinds) }
                if state.head > 1024, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
            }
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// Ends the stream: the waiting readers get nil, a later one the events still kept, then nil.
    func finish() {
        let ending: (waiting: [CheckedContinuation<Event?, Never>], termination: (@Sendable () -> Void)?)? = state.withLock {
            state in
            guard !state.finished else { return nil }
            state.finished = true
            defer {
                state.waiters = []
                state.onTermination = nil
            }
            return (state.waiters, state.onTermination)
        }
        guard let ending else { return }
        for waiter in ending.waiting { waiter.resume(returning: nil) }
        ending.termination?()
    }

    func next() async -> Event? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
                // What to resume with now (.some), or nil when the continuation was kept.
                let now: Event?? = state.withLock { state in
                    if let event = state.take() { return .some(event) }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// A reading task was cancelled: the stream ends, and every wait with nil.
    private func cancel() {
        finish()
    }
}
