import Testing

@testable import OnAirLive

/// Which capture frames feed a lower-rate encode (the sub stream).
@Suite struct FrameDecimatorTests {
    private func taken(_ times: [Double], rate: Double) -> [Double] {
        var decimator = FrameDecimator(rate: rate)
        return times.filter { decimator.take($0) }
    }

    @Test func thirtyToFiveTakesEverySixthFrame() {
        let times = (0..<60).map { 100 + Double($0) / 30 }
        let chosen = taken(times, rate: 5)
        #expect(chosen.count == 10)
        #expect(chosen == (0..<10).map { times[$0 * 6] })
    }

    @Test func aNonDividingRateKeepsItsAverageWithoutDrift() {
        // 30 → 25 fps for 60 s: exactly 1500 frames, never two in one 40 ms slot.
        let chosen = taken((0..<1800).map { Double($0) / 30 }, rate: 25)
        #expect(chosen.count == 1500)
        #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $1 - $0 > 0.03 })
    }

    @Test func jitterAndDropsAtTheCaptureDoNotChangeTheRate() {
        // ±3 ms of jitter, and every seventh frame dropped before the decimator.
        let kept: [Int] = (0..<300).filter { $0 % 7 != 3 }
        let times: [Double] = kept.map { index in
            let jitter: Double = index % 2 == 0 ? 0.003 : -0.003
            return Double(index) / 30 + jitter
        }
        let chosen = taken(times, rate: 5)
        #expect((49...50).contains(chosen.count))
        #expect(zip(chosen, chosen.dropFirst()).allSatisfy { $1 - $0 > 0.15 && $1 - $0 < 0.25 })
    }

    @Test func aRateAtOrAboveTheCaptureTakesEveryFrame() {
        let times = (0..<30).map { Double($0) / 10 }
        #expect(taken(times, rate: 10) == times)
        #expect(taken(times, rate: 30) == times)
        #expect(taken(times, rate: 0) == times)
    }

    @Test func aClockThatGoesBackStartsTheSlotsAgain() {
        var decimator = FrameDecimator(rate: 5)
        // Back in time at 2: a new origin.
        let chosen = [10, 10.1, 2, 2.1, 2.2].map { decimator.take($0) }
        #expect(chosen == [true, false, true, false, true])
    }
}
