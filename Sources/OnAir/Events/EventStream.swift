import Foundation

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
public typealias SessionEventStream = EventStream<SessionEvent>

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
/// `@unchecked Sendable`: every stored property is read and written under `lock`.
final class EventBuffer<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private let kinds: EventKinds<Event>
    private var queue: [Event] = []
    private var head = 0
    private var statistics: Event?
    private var waiters: [CheckedContinuation<Event?, Never>] = []
    private var finished = false
    private var droppedCount = 0
    /// Called once when the reader goes away (cancelled) or the stream ends.
    var onTermination: (@Sendable () -> Void)?

    init(capacity: Int, kinds: EventKinds<Event>) {
        self.capacity = max(1, capacity)
        self.kinds = kinds
    }

    var dropped: Int { lock.withLock { droppedCount } }

    /// Readers waiting for an event now.
    var waitingReaders: Int { lock.withLock { waiters.count } }

    /// Adds an event (from any thread): hands it to a waiting reader or keeps it.
    func add(_ event: Event) {
        lock.lock()
        guard !finished else { return lock.unlock() }
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            lock.unlock()
            waiter.resume(returning: event)
            return
        }
        if kinds.isStatistics(event) {
            statistics = event
        } else {
            queue.append(event)
            if queue.count - head > capacity { dropOldest() }
            if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
        }
        lock.unlock()
    }

    /// Ends the stream: the waiting readers get nil, a later one the events still kept, then nil.
    func finish() {
        lock.lock()
        guard !finished else { return lock.unlock() }
        finished = true
        let waiting = waiters
        waiters = []
        let termination = onTermination
        onTermination = nil
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: nil) }
        termination?()
    }

    func next() async -> Event? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
                lock.lock()
                if let event = takeLocked() {
                    lock.unlock()
                    continuation.resume(returning: event)
                } else if finished || Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiters.append(continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// A reading task was cancelled: the stream ends, and every wait with nil.
    private func cancel() {
        finish()
    }

    /// The oldest kept event, then the newest statistics; under the lock.
    private func takeLocked() -> Event? {
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

    /// Drops the oldest kept event that is not pinned (a failure); under the lock.
    private func dropOldest() {
        let index = queue[head...].firstIndex { !kinds.isPinned($0) }
        guard let index else { return }
        queue.remove(at: index)
        droppedCount += 1
    }
}
