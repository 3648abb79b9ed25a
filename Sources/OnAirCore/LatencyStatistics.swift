/// Collects durations (seconds) and reports their percentiles.
public struct LatencyStatistics: Sendable, Codable, Equatable {
    private var samples: [Double] = []

    /// Creates an empty collection.
    public init() {}

    /// Adds one duration in seconds.
    public mutating func add(_ seconds: Double) { samples.append(seconds) }

    /// How many durations were added.
    public var count: Int { samples.count }

    /// The `p`-th percentile (0…100) by nearest rank, or nil when empty.
    public func percentile(_ p: Double) -> Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The largest duration, or nil when empty.
    public var maximum: Double? { samples.max() }
}
