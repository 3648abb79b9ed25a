import Foundation
import Testing

@testable import OnAir
@testable import OnAirLive

/// What a subscriber that falls behind, or never reads, gets from a session's events.
@Suite struct SessionEventStreamTests {
    struct Broken: Error {}

    static func statistics(_ elapsed: Double) -> SessionEvent {
        var figures = LiveStatistics()
        figures.elapsed = elapsed
        return .statistics(figures)
    }

    static func describe(_ event: SessionEvent) -> String {
        switch event {
        case .statistics(let figures): return "statistics \(Int(figures.elapsed))"
        case .outputFailed(let failure): return "failed \(failure.destination)"
        case .notice(let text): return "notice \(text)"
        default: return "other"
        }
    }

    @Test func aReaderThatWasAwayGetsTheFailureTheNoticesInOrderAndTheNewestStatistics() async {
        let fanOut = SessionEventFanOut(handler: nil)
        let events = fanOut.stream()
        // Ten minutes of statistics while nobody reads, a failure and a reconnect notice among them:
        // more than the 256 the previous buffer kept (it lost the failure).
        for second in 0..<600 {
            fanOut.send(Self.statistics(Double(second)))
            if second == 100 { fanOut.send(.outputFailed(OutputFailure(destination: "rtmp://a", error: Broken()))) }
            if second == 105 { fanOut.send(.notice("reconnected")) }
        }
        fanOut.finish()
        var seen: [String] = []
        for await event in events { seen.append(Self.describe(event)) }
        #expect(seen == ["failed rtmp://a", "notice reconnected", "statistics 599"])
        #expect(events.dropped == 0)
    }

    @Test func aReaderThatNeverReadsKeepsABoundedQueueWhoseFailuresStay() async {
        let fanOut = SessionEventFanOut(handler: nil)
        let events = fanOut.stream(capacity: 8)
        fanOut.send(.outputFailed(OutputFailure(destination: "a.mp4", error: Broken())))
        for index in 0..<1000 { fanOut.send(.notice("\(index)")) }
        fanOut.finish()
        var seen: [String] = []
        for await event in events { seen.append(Self.describe(event)) }
        // The failure, then the newest notices; what went is counted.
        #expect(seen.first == "failed a.mp4" && seen.count == 8 && seen.last == "notice 999", "\(seen)")
        #expect(events.dropped == 1000 - 7)
    }

    /// Two iterators of one stream waiting at once: each notice reaches one of them, none twice,
    /// and the end wakes both (one waiter used to replace the other, whose wait never ended).
    @Test(.timeLimit(.minutes(1)))
    func twoReadersOfOneStreamShareItsEventsAndBothSeeItsEnd() async {
        let fanOut = SessionEventFanOut(handler: nil)
        let events = fanOut.stream()
        let readers = (0..<2).map { _ in
            Task {
                var seen: [String] = []
                var iterator = events.makeAsyncIterator()
                while let event = await iterator.next() { seen.append(Self.describe(event)) }
                return seen
            }
        }
        // Both readers wait at once before anything is sent.
        while events.buffer.waitingReaders < 2 { await Task.yield() }
        for index in 0..<10 { fanOut.send(.notice("\(index)")) }
        while events.buffer.waitingReaders < 2 { await Task.yield() }
        fanOut.finish()
        var all: [String] = []
        for reader in readers { all += await reader.value }
        #expect(all.sorted() == (0..<10).map { "notice \($0)" }.sorted(), "\(all)")
    }

    @Test func eachSubscriberHasItsOwnQueueAndAWaitingReaderIsWokenInOrder() async {
        let fanOut = SessionEventFanOut(handler: nil)
        let first = fanOut.stream(), second = fanOut.stream()
        let reader = Task {
            var seen: [String] = []
            for await event in first { seen.append(Self.describe(event)) }
            return seen
        }
        for index in 0..<50 { fanOut.send(.notice("\(index)")) }
        fanOut.finish()
        let read = await reader.value
        #expect(read == (0..<50).map { "notice \($0)" })
        var other: [String] = []
        for await event in second { other.append(Self.describe(event)) }
        #expect(other == read)
    }

    @Test func cancellingTheReadingTaskEndsItsWait() async {
        let fanOut = SessionEventFanOut(handler: nil)
        let events = fanOut.stream()
        let reader = Task {
            var count = 0
            for await _ in events { count += 1 }
            return count
        }
        fanOut.send(.notice("one"))
        reader.cancel()
        // The reader ends (no hang) whether or not it saw the notice before the cancellation.
        let count = await reader.value
        #expect(count <= 1)
        fanOut.finish()
    }
}
