/// Stamps captured audio from its sample count, so timestamps are continuous and exact.
///
/// Device timestamps for audio jitter (PulseAudio's are read times minus a latency estimate that
/// swings by a tenth of a second and more); samples do not. After the first buffer, each buffer's
/// time is the first one's plus the samples before it. Only when the device time strays further
/// than `tolerance` (a real gap, such as an overrun) does the timeline re-anchor on it.
public struct AudioTimeline: Sendable {
    private var anchor: Double?
    private var samples: Int64 = 0
    private var sampleRate = 0
    /// How far device time may stray from the sample count before the timeline follows it.
    public let tolerance: Double

    /// Creates a timeline that re-anchors when device time strays more than `tolerance` seconds.
    public init(tolerance: Double = 1.0) {
        self.tolerance = tolerance
    }

    /// The time of a buffer of `frameCount` samples at `sampleRate` whose device time is `deviceTime`.
    public mutating func stamp(deviceTime: MediaTime, frameCount: Int, sampleRate: Int) -> MediaTime {
        if let anchor, sampleRate == self.sampleRate {
            let expected = anchor + Double(samples) / Double(sampleRate)
            if abs(deviceTime.seconds - expected) <= tolerance {
                samples += Int64(frameCount)
                return MediaTime(value: Int64((expected * 1_000_000).rounded()), timescale: 1_000_000)
            }
        }
        anchor = deviceTime.seconds
        self.sampleRate = sampleRate
        samples = Int64(frameCount)
        return deviceTime
    }
}
