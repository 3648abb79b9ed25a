import OnAirCore
import Testing

/// Device audio is stamped from its sample count, follows the device clock's drift, and shrugs off jitter.
@Suite struct AudioTimelineTests {
    /// Buffers of 480 samples at 48 kHz from a device `ppm` fast, device times jittering by ±`jitter` s.
    static func run(ppm: Double, jitter: Double, seconds: Double) -> (last: Double, truth: Double, maxStep: Double) {
        var timeline = AudioTimeline()
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        var index: Int64 = 0
        var previous: Double?
        var maxStep = 0.0
        var last = 0.0, truth = 0.0
        while Double(index) / 48_000 < seconds {
            truth = Double(index) / (48_000 * (1 + ppm / 1e6))
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = (Double(random >> 11) / Double(1 << 53) * 2 - 1) * jitter
            last = timeline.stamp(deviceTime: MediaTime(seconds: truth + noise), frameCount: 480, sampleRate: 48_000).seconds
            if let previous { maxStep = max(maxStep, abs(last - previous - 0.01)) }
            previous = last
            index += 480
        }
        return (last, truth, maxStep)
    }

    @Test func aDriftingDeviceIsFollowedSmoothly() {
        // 20 min at +500 ppm: counting samples alone would be 0.6 s off.
        let result = Self.run(ppm: 500, jitter: 0.05, seconds: 1200)
        #expect(abs(result.last - result.truth) < 0.02, "\(result.last) vs \(result.truth)")
        // Each step stays within a fraction of a millisecond of the buffer's length: no jumps.
        #expect(result.maxStep < 0.001, "largest step deviation \(result.maxStep) s")
    }

    @Test func jitterAloneAveragesOut() {
        let result = Self.run(ppm: 0, jitter: 0.1, seconds: 120)
        #expect(abs(result.last - result.truth) < 0.01, "\(result.last) vs \(result.truth)")
    }
}
