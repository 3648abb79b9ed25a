/// Stamps captured audio from its sample count, so timestamps are continuous and exact, while
/// following the device clock's drift.
///
/// Device timestamps for audio jitter (PulseAudio's are read times minus a latency estimate that
/// swings by a tenth of a second and more); samples do not. After the first buffer, each buffer's
/// time is the first one's plus the samples before it, plus the device time's mean deviation from
/// that count, averaged over `driftTimeConstant` seconds: a sample clock that runs fast or slow
/// against the capture clock (a few hundred ppm is common) is followed smoothly instead of adding
/// up to an A/V offset, and the jitter averages out. Only when the device time strays further
/// than `tolerance` (a real gap, such as an overrun) does the timeline re-anchor on it.
package struct AudioTimeline: Sendable {
    private var anchor: Double?
    private var samples: Int64 = 0
    private var sampleRate = 0
    /// The device time's smoothed deviation from the sample count, in seconds.
    public private(set) var drift = 0.0
    /// How far device time may stray from the sample count before the timeline follows it.
    public let tolerance: Double
    /// Seconds over which the device time's deviation is averaged.
    public let driftTimeConstant: Double

    /// Creates a timeline that re-anchors when device time strays more than `tolerance` seconds
    /// and follows drift averaged over `driftTimeConstant` seconds.
    public init(tolerance: Double = 1.0, driftTimeConstant: Double = 20) {
        self.tolerance = tolerance
        self.driftTimeConstant = driftTimeConstant
    }

    /// The time of a buffer of `frameCount` samples at `sampleRate` whose device time is `deviceTime`.
    public mutating func stamp(deviceTime: MediaTime, frameCount: Int, sampleRate: Int) -> MediaTime {
        if let anchor, sampleRate == self.sampleRate {
            let counted = anchor + Double(samples) / Double(sampleRate)
            let deviation = deviceTime.seconds - counted
            if abs(deviation - drift) <= tolerance {
                let weight = min(1, Double(frameCount) / Double(sampleRate) / max(driftTimeConstant, 1e-3))
                drift += (deviation - drift) * weight
                samples += Int64(frameCount)
                return MediaTime(value: Int64(((counted + drift) * 1_000_000).rounded()), timescale: 1_000_000)
            }
        }
        anchor = deviceTime.seconds
        self.sampleRate = sampleRate
        samples = Int64(frameCount)
        drift = 0
        return deviceTime
    }
}
