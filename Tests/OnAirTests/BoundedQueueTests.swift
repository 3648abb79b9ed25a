import Foundation
import OnAir
import Testing

@Suite struct BoundedQueueTests {
    /// An item whose release the test can observe.
    private final class Tracked: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func keepsOrderAcrossWrapAround() {
        let queue = BoundedQueue<Int>(capacity: 3)
        var popped: [Int] = []
        for value in 0..<20 {
            queue.push(value, overflow: .wait)
            if value % 2 == 1 {
                while queue.depth > 1 { popped.append(queue.pop()!) }
            }
        }
        queue.close()
        while let value = queue.pop() { popped.append(value) }
        #expect(popped == Array(0..<20))
        #expect(queue.highWaterMark <= 3)
    }

    @Test func dropOldestReturnsAndCountsTheOldest() {
        let queue = BoundedQueue<Int>(capacity: 4)
        var discarded: [Int] = []
        for value in 0..<10 {
            if let old = queue.push(value, overflow: .dropOldest) { discarded.append(old) }
        }
        #expect(discarded == Array(0..<6))
        #expect(queue.dropped == 6)
        #expect(queue.depth == 4)
        queue.close()
        #expect(queue.push(99, overflow: .dropOldest) == nil)
        var rest: [Int] = []
        while let value = queue.pop() { rest.append(value) }
        #expect(rest == [6, 7, 8, 9])
    }

    /// Popped and dropped items must not stay alive in the queue's storage: a video queue of four
    /// 1080p frames once kept ~70 frames (over 200 MB) referenced.
    @Test func releasesPoppedAndDroppedItems() {
        let queue = BoundedQueue<Tracked>(capacity: 4)
        weak var firstPopped: Tracked?
        weak var firstDropped: Tracked?
        do {
            let item = Tracked(0)
            firstPopped = item
            queue.push(item, overflow: .dropOldest)
            #expect(queue.pop()?.value == 0)
        }
        #expect(firstPopped == nil)
        do {
            let item = Tracked(1)
            firstDropped = item
            queue.push(item, overflow: .dropOldest)
        }
        var live: [Weak] = []
        for value in 2..<100 {
            let item = Tracked(value)
            live.append(Weak(item))
            queue.push(item, overflow: .dropOldest)
            if value % 3 == 0 { _ = queue.pop() }
        }
        #expect(firstDropped == nil)
        #expect(live.filter { $0.object != nil }.count == queue.depth)
        queue.close()
        while queue.pop() != nil {}
        #expect(live.allSatisfy { $0.object == nil })
    }

    @Test func waitBlocksUntilTheConsumerMakesRoom() {
        let queue = BoundedQueue<Int>(capacity: 2)
        let producer = Thread {
            for value in 0..<50 { queue.push(value, overflow: .wait) }
            queue.close()
        }
        producer.start()
        var received: [Int] = []
        while let value = queue.pop() { received.append(value) }
        #expect(received == Array(0..<50))
        #expect(queue.dropped == 0)
        #expect(queue.highWaterMark <= 2)
    }

    private struct Weak {
        weak var object: Tracked?
        init(_ object: Tracked) { self.object = object }
    }
}
