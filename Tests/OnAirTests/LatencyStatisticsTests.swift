import Foundation
import OnAirCore
import Testing

/// Latency percentiles: exact for short runs, within 0.5 % in bounded memory for long ones.
@Suite struct LatencyStatisticsTests {
    @Test func shortRunsAreExact() {
        var statistics = LatencyStatistics()
        for value in [0.030, 0.010, 0.020, 0.040] { statistics.add(value) }
        #expect(statistics.percentile(50) == 0.020)
        #expect(statistics.percentile(100) == 0.040)
        #expect(statistics.maximum == 0.040 && statistics.minimum == 0.010 && statistics.count == 4)
    }

    @Test func longRunsStayWithinHalfAPercentInBoundedMemory() throws {
        var statistics = LatencyStatistics()
        // A million latencies, 1…100 ms evenly: p50 ≈ 50.5 ms, p95 ≈ 95.05 ms.
        let count = 1_000_000
        for index in 0..<count { statistics.add(0.001 + 0.099 * Double(index) / Double(count - 1)) }
        let p50 = try #require(statistics.percentile(50)), p95 = try #require(statistics.percentile(95))
        #expect(abs(p50 - 0.0505) / 0.0505 < 0.006, "p50 \(p50)")
        #expect(abs(p95 - 0.09505) / 0.09505 < 0.006, "p95 \(p95)")
        #expect(statistics.count == count && abs((statistics.maximum ?? 0) - 0.1) < 1e-12)
        // The encoded size is what the statistics hold: a few hundred bins, not a million samples.
        let bytes = try JSONEncoder().encode(statistics).count
        #expect(bytes < 20_000, "\(bytes) bytes")
    }
}
