import Foundation

/// Durations (latencies) with percentiles, in bounded memory however long a run lasts.
///
/// The first `exactLimit` durations are kept as they are, so short runs get exact percentiles.
/// Beyond that every duration goes into a histogram of logarithmic bins 1 % wide (from 1 µs up;
/// at most about 2 100 bins for anything below 1000 s), so a percentile is within 0.5 % of the
/// true value while memory stays fixed. Count, minimum, maximum and mean stay exact.
public struct LatencyStatistics: Sendable, Codable, Equatable {
    /// How many durations are kept exactly before the histogram takes over.
    public static let exactLimit = 4096
    /// Relative width of a histogram bin.
    static let binRatio = 1.01
    /// The lower edge of bin 0, in seconds; anything shorter lands in bin 0.
    static let smallest = 1e-6

    private var samples: [Double] = []
    private var bins: [Int: Int] = [:]
    /// How many durations were added.
    public private(set) var count = 0
    /// The largest duration, or nil when empty.
    public private(set) var maximum: Double?
    /// The smallest duration, or nil when empty.
    public private(set) var minimum: Double?
    private var sum = 0.0

    /// Creates an empty collection.
    public init() {}

    /// Adds one duration in seconds.
    public mutating func add(_ seconds: Double) {
        guard seconds.isFinite else { return }
        count += 1
        sum += seconds
        maximum = max(maximum ?? seconds, seconds)
        minimum = min(minimum ?? seconds, seconds)
        if bins.isEmpty && samples.count < Self.exactLimit {
            samples.append(seconds)
            return
        }
        if !samples.isEmpty {
            for sample in samples { bins[Self.bin(of: sample), default: 0] += 1 }
            samples = []
        }
        bins[Self.bin(of: seconds), default: 0] += 1
    }

    /// The mean duration, or nil when empty.
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The `p`-th percentile (0…100) by nearest rank, or nil when empty (within 0.5 % once
    /// more than `exactLimit` durations were added).
    public func percentile(_ p: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(max(Int((p / 100 * Double(count)).rounded(.up)), 1), count)
        if bins.isEmpty {
            return samples.sorted()[rank - 1]
        }
        var seen = 0
        for bin in bins.keys.sorted() {
            seen += bins[bin]!
            if seen >= rank {
                // The bin's geometric middle, kept within what was actually seen.
                let middle = Self.smallest * pow(Self.binRatio, Double(bin) + 0.5)
                return min(max(middle, minimum ?? middle), maximum ?? middle)
            }
        }
        return maximum
    }

    private static func bin(of seconds: Double) -> Int {
        guard seconds > smallest else { return 0 }
        return Int((log(seconds / smallest) / log(binRatio)).rounded(.down))
    }
}
