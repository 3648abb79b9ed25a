#if os(Linux)
import OnAirCore

/// The answers WS-Discovery holds back: a device answers a multicast Probe or Resolve after a
/// random wait of up to `APP_MAX_DELAY` (500 ms, WS-Discovery 2005/04 section 3.1.3), so that a
/// network of devices does not answer one client all at once. Each held answer gets its due
/// time from the random source and the monotonic clock passed in; `due(now:)` gives back those
/// whose time came, earliest first. At most `maximumHeld` wait (a flood beyond is dropped, the
/// rate limit having let it through).
package struct WSDiscoveryDelays<Item> {
    /// WS-Discovery's APP_MAX_DELAY, in seconds.
    package static var maximumDelay: Double { 0.5 }

    /// Answers held at most.
    package var maximumHeld = 64
    private var held: [(due: Double, item: Item)] = []

    /// None held.
    package init() {}

    /// Holds `item` until `now` plus a random wait in [0, `maximumDelay`) drawn from `random`
    /// (one draw, its top 53 bits as the fraction of `maximumDelay`);
    /// false (dropped) when `maximumHeld` already wait.
    package mutating func hold(_ item: Item, now: Double, using random: inout some RandomNumberGenerator) -> Bool {
        guard held.count < maximumHeld else { return false }
        // The top 53 bits of one draw as a fraction in [0, 1): the wait is that much of the most.
        let due = now + Double(random.next() >> 11) * 0x1p-53 * Self.maximumDelay
        let index = held.firstIndex { $0.due > due } ?? held.endIndex
        held.insert((due, item), at: index)
        return true
    }

    /// The held items due at `now`, earliest first (no longer held).
    package mutating func due(now: Double) -> [Item] {
        let count = held.prefix { $0.due <= now }.count
        defer { held.removeFirst(count) }
        return held.prefix(count).map(\.item)
    }

    /// When the next held item is due, nil when none is held.
    package var next: Double? { held.first?.due }

    /// How many are held.
    package var count: Int { held.count }
}
#endif
