import Foundation

/// A blocking first-in-first-out queue with a fixed capacity, shared between one producer
/// thread and one consumer thread.
///
/// What happens when it is full is the caller's choice at `push`: wait for room (nothing may be
/// lost: audio, file sinks), or drop the oldest item and count it (late video frames, a stalled
/// network). It never grows beyond `capacity`.
public final class BoundedQueue<Element>: @unchecked Sendable {
    /// What `push` does when the queue is full.
    public enum OverflowPolicy: Sendable {
        /// Block the producer until the consumer makes room.
        case wait
        /// Discard the oldest queued item to make room.
        case dropOldest
    }

    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    /// The most items the queue holds.
    public let capacity: Int
    /// Items discarded by `.dropOldest`.
    public private(set) var dropped = 0
    /// The largest depth seen.
    public private(set) var highWaterMark = 0

    /// Creates an empty queue holding at most `capacity` (≥ 1) items.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Items waiting now.
    public var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return items.count - head
    }

    /// Adds an item; returns the item dropped to make room, if any. Returns nil without adding
    /// when the queue was closed.
    @discardableResult
    public func push(_ item: Element, overflow: OverflowPolicy) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        var discarded: Element?
        while !closed && items.count - head >= capacity {
            if overflow == .dropOldest {
                discarded = items[head]
                head += 1
                dropped += 1
            } else {
                condition.wait()
            }
        }
        guard !closed else { return nil }
        items.append(item)
        highWaterMark = max(highWaterMark, items.count - head)
        compact()
        condition.broadcast()
        return discarded
    }

    /// Takes the oldest item, waiting for one; returns nil once the queue is closed and empty.
    public func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !closed { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        compact()
        condition.broadcast()
        return item
    }

    /// Marks the end of input: `pop` drains what is left and then returns nil; `push` refuses.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func compact() {
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
