import Foundation

/// A point or span of media time as a rational number: `value / timescale` seconds.
///
/// Timestamps in OnAir come from the capture clock; this type carries them without rounding
/// until a sink converts them to its own time base.
public struct MediaTime: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The numerator, in units of `1 / timescale` seconds.
    public var value: Int64
    /// Units per second; always positive.
    public var timescale: Int32

    /// Creates a time of `value / timescale` seconds. A non-positive timescale is treated as 1.
    public init(value: Int64, timescale: Int32) {
        self.value = value
        self.timescale = timescale > 0 ? timescale : 1
    }

    /// Creates a time from seconds, rounded to the nearest microsecond.
    public init(seconds: Double) {
        self.init(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
    }

    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The time in seconds.
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The same time in another timescale, rounded to the nearest unit.
    public func converted(to newTimescale: Int32) -> MediaTime {
        if newTimescale == timescale { return self }
        let scaled = (Double(value) * Double(newTimescale) / Double(timescale)).rounded()
        return MediaTime(value: Int64(scaled), timescale: newTimescale)
    }

    /// Orders two times by their value in seconds, whatever their timescales.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        // Cross-multiplication in 128 bits would be exact; Double is exact enough for media spans.
        Double(lhs.value) * Double(rhs.timescale) < Double(rhs.value) * Double(lhs.timescale)
    }

    /// Whether two times are the same instant, exactly, whatever their timescales (1/2 == 3/6).
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        Int128(lhs.value) * Int128(rhs.timescale) == Int128(rhs.value) * Int128(lhs.timescale)
    }

    /// Hashes the time in seconds, so that equal times on different timescales hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
    }

    /// The time as value/timescale, e.g. "3003/90000".
    public var description: String { "\(value)/\(timescale)" }
}

extension MediaTime {
    /// The sum, in the finer of the two timescales.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if lhs.timescale == rhs.timescale { return MediaTime(value: lhs.value + rhs.value, timescale: lhs.timescale) }
        let scale = max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.converted(to: scale).value + rhs.converted(to: scale).value, timescale: scale)
    }

    /// The difference, in the finer of the two timescales.
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        lhs + MediaTime(value: -rhs.value, timescale: rhs.timescale)
    }
}
