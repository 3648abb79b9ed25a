import Foundation

/// A blocking first-in-first-out queue with a fixed capacity, shared between one producer
/// thread and one consumer thread.
///
/// What happens when it is full is the caller's choice at `push`: wait for room (nothing may be
/// lost: audio, file sinks), or drop the oldest item and count it (late video frames, a stalled
/// network). It never grows beyond `capacity`.
/// Unchecked Sendable: the blocking counterpart of `Locked`: every stored var is reached only under `condition`
package final class BoundedQueue<Element>: @unchecked Sendable {
    /// What `push` does when the queue is full.
    public enum OverflowPolicy: Sendable {
        /// Block the producer until the consumer makes room.
        case wait
        /// Discard the oldest queued item to make room.
        case dropOldest
    }

    private let condition = NSCondition()
    /// A ring buffer: `count` items from `head` on, wrapping; every other slot is nil, so an item
    /// is released as soon as it is popped or dropped. It grows up to `capacity` slots as needed.
    private var slots: [Element?] = []
    private var head = 0
    private var count = 0
    private var closed = false
    /// The most items the queue holds.
    public let capacity: Int
    // Under `condition`, read through `dropped` and `highWaterMark` from any thread.
    private var droppedCount = 0
    private var highestDepth = 0
    /// Items discarded by `.dropOldest`.
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }
    /// The largest depth seen.
    public var highWaterMark: Int {
        condition.lock()
        defer { condition.unlock() }
        return highestDepth
    }

    /// Creates an empty queue holding at most `capacity` (≥ 1) items.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Items waiting now.
    public var depth: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    /// Adds an item; returns the item dropped to make room, if any. Returns nil without adding
    /// when the queue was closed.
    @discardableResult
    public func push(_ item: Element, overflow: OverflowPolicy) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        var discarded: Element?
        while !closed && count >= capacity {
            if overflow == .dropOldest {
                discarded = takeFirst()
                droppedCount += 1
            } else {
                condition.wait()
            }
        }
        guard !closed else { return nil }
        if count == slots.count { grow() }
        slots[(head + count) % slots.count] = item
        count += 1
        highestDepth = max(highestDepth, count)
        condition.broadcast()
        return discarded
    }

    /// Takes the oldest item, waiting for one; returns nil once the queue is closed and empty.
    public func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0 else { return nil }
        let item = takeFirst()
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

    /// Removes the oldest item and clears its slot, so the queue keeps no reference to it.
    private func takeFirst() -> Element {
        let item = slots[head].take()!
        head = (head + 1) % slots.count
        count -= 1
        return item
    }

    /// Doubles the ring (up to `capacity` slots), keeping the items in order from slot 0.
    private func grow() {
        let size = min(capacity, max(4, slots.count * 2))
        var larger = [Element?](repeating: nil, count: size)
        for offset in 0..<count { larger[offset] = slots[(head + offset) % slots.count].take() }
        slots = larger
        head = 0
    }
}
