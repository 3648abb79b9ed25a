import Foundation

/// The events of a running session for one subscriber, in order, as an `AsyncSequence`
/// (`for await event in session.events()`). Nothing that matters is lost to a reader that falls
/// behind: failures, connection changes, bitrate changes, viewers and notices are all kept, in
/// the order they happened; only statistics are coalesced — a reader that was away gets the
/// newest once it reads again. A reader that never reads costs bounded memory: past
/// `SessionEventStream.capacity` kept events the oldest that is not an output failure goes (an
/// output fails once, so those are bounded by the outputs), and `dropped` counts them.
public struct SessionEventStream: AsyncSequence, Sendable {
    /// The element: one event.
    public typealias Element = SessionEvent

    /// Events kept for a reader that falls behind, statistics aside.
    public static let capacity = 4096

    let buffer: SessionEventBuffer

    /// Events that had to go because more than `capacity` waited unread (0 for a reader that keeps up).
    public var dropped: Int { buffer.dropped }

    /// The iterator: `next()` suspends until an event comes, and ends with the session or when
    /// the task that reads is cancelled.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let buffer: SessionEventBuffer

        /// The next event, or nil when the session has ended (or the reading task was cancelled).
        public mutating func next() async -> SessionEvent? { await buffer.next() }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer) }
}

/// One subscriber's queue behind a `SessionEventStream` (see there for what is kept).
final class SessionEventBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private var queue: [SessionEvent] = []
    private var head = 0
    private var statistics: SessionEvent?
    private var waiter: CheckedContinuation<SessionEvent?, Never>?
    private var finished = false
    private var droppedCount = 0
    /// Called once when the reader goes away (cancelled) or the stream ends.
    var onTermination: (@Sendable () -> Void)?

    init(capacity: Int = SessionEventStream.capacity) {
        self.capacity = max(1, capacity)
    }

    var dropped: Int { lock.withLock { droppedCount } }

    /// Adds an event (from any thread): hands it to a waiting reader or keeps it.
    func add(_ event: SessionEvent) {
        lock.lock()
        guard !finished else { return lock.unlock() }
        if let waiter {
            self.waiter = nil
            lock.unlock()
            waiter.resume(returning: event)
            return
        }
        if case .statistics = event {
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

    /// Ends the stream: a waiting reader gets nil, a later one the events still kept, then nil.
    func finish() {
        lock.lock()
        guard !finished else { return lock.unlock() }
        finished = true
        let waiter = self.waiter
        self.waiter = nil
        let termination = onTermination
        onTermination = nil
        lock.unlock()
        waiter?.resume(returning: nil)
        termination?()
    }

    func next() async -> SessionEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SessionEvent?, Never>) in
                lock.lock()
                if let event = takeLocked() {
                    lock.unlock()
                    continuation.resume(returning: event)
                } else if finished || Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: nil)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The reading task was cancelled: its wait ends with nil, and so does the stream.
    private func cancel() {
        lock.lock()
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: nil)
        finish()
    }

    /// The oldest kept event, then the newest statistics; under the lock.
    private func takeLocked() -> SessionEvent? {
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

    /// Drops the oldest kept event that is not an output failure; under the lock.
    private func dropOldest() {
        let index = queue[head...].firstIndex {
            if case .outputFailed = $0 { return false }
            return true
        }
        guard let index else { return }
        queue.remove(at: index)
        droppedCount += 1
    }
}
