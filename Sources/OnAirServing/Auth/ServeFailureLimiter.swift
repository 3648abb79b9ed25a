#if os(Linux)
import Foundation
import OnAirCore

/// Counts failed authentications per client address over a sliding minute; an address with
/// `threshold` failures in that minute is blocked for a while, twice as long each time it is blocked
/// again (up to an hour). Other addresses are not affected. The clock is injected (seconds, any origin).
package final class ServeFailureLimiter: Sendable {
    /// Failures within `window` seconds that block an address.
    public let threshold: Int
    /// The sliding window, seconds.
    public let window: Double
    /// The first block, seconds; each later one of the same address doubles, up to `longestBlock`.
    public let firstBlock: Double
    /// The longest block, seconds.
    public let longestBlock: Double
    /// Addresses remembered at most (the stalest are forgotten beyond it).
    public let capacity: Int
    private let now: @Sendable () -> Double
    private let entries = Locked([String: Entry]())

    private struct Entry {
        var failures: [Double] = []
        var blockedUntil: Double = -.infinity
        var blocks = 0
        var lastSeen: Double
    }

    /// A limiter; `now` gives the time in seconds (monotonic by default).
    public init(
        threshold: Int = 10, window: Double = 60, firstBlock: Double = 60, longestBlock: Double = 3600, capacity: Int = 10_000,
        now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.threshold = threshold
        self.window = window
        self.firstBlock = firstBlock
        self.longestBlock = longestBlock
        self.capacity = capacity
        self.now = now
    }

    /// Seconds `address` stays blocked, or nil when it is not.
    public func blocked(_ address: String) -> Double? {
        entries.withLock { entries in
            guard let entry = entries[address] else { return nil }
            let left = entry.blockedUntil - now()
            return left > 0 ? left : nil
        }
    }

    /// Counts one failure of `address`; returns the block's length when this failure blocks it.
    @discardableResult
    public func fail(_ address: String) -> Double? {
        entries.withLock { entries in
            fail(address, in: &entries)
        }
    }

    private func fail(_ address: String, in entries: inout [String: Entry]) -> Double? {
        let time = now()
        var entry = entries[address] ?? Entry(lastSeen: time)
        if time - entry.lastSeen > longestBlock { entry.blocks = 0 }  // an hour of quiet: forgiven
        entry.lastSeen = time
        entry.failures.removeAll { $0 <= time - window }
        entry.failures.append(time)
        var blockedFor: Double?
        if entry.failures.count >= threshold, entry.blockedUntil <= time {
            let length = min(longestBlock, firstBlock * pow(2, Double(min(entry.blocks, 30))))
            entry.blocks += 1
            entry.blockedUntil = time + length
            entry.failures.removeAll()
            blockedFor = length
        }
        entries[address] = entry
        if entries.count > capacity { forgetStale(at: time, in: &entries) }
        return blockedFor
    }

    /// Addresses remembered now (for tests and statistics).
    public var count: Int { entries.withLock { $0.count } }

    /// Forgets addresses neither blocked nor failing for an hour; if that is not enough, the stalest.
    private func forgetStale(at time: Double, in entries: inout [String: Entry]) {
        entries = entries.filter { $0.value.blockedUntil > time || $0.value.lastSeen > time - longestBlock }
        if entries.count > capacity {
            let keep = entries.sorted { $0.value.lastSeen > $1.value.lastSeen }.prefix(capacity)
            entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
    }
}
#endif
