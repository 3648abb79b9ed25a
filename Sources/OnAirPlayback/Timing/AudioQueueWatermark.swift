#if os(Linux)
/// The low-water mark of a live player's audio queue: the least audio found waiting at the
/// arrivals of the last `window` seconds.
///
/// The queue is lowest just before audio arrives, so its level at each arrival is recorded;
/// the least of them is the delay that stands whatever the arrivals' jitter. When the player
/// shortens or drops queued audio, every level recorded is lowered by as much (the whole queue
/// moved earlier), so the mark shows the effect at once instead of a window later.
package struct AudioQueueWatermark: Sendable {
    /// How far back (seconds) the arrivals count.
    public var window: Double
    private var levels: [(time: Double, queued: Double)] = []

    /// A watermark over the last `window` seconds.
    public init(window: Double = 1) {
        self.window = window
    }

    /// Records `queued` seconds waiting when audio arrived at `now` (monotonic seconds).
    public mutating func record(queued: Double, now: Double) {
        levels.removeAll { $0.time < now - window }
        levels.append((now, queued))
    }

    /// Lowers every recorded level by `seconds` (audio taken out of the queue).
    public mutating func lower(by seconds: Double) {
        for index in levels.indices { levels[index].queued = max(0, levels[index].queued - seconds) }
    }

    /// Forgets every level (a new input, a restart).
    public mutating func reset() { levels.removeAll() }

    /// The least level recorded in the window, nil before any arrival.
    public var lowWater: Double? { levels.map(\.queued).min() }
}
#endif
