import OnAir
import Testing

/// Data-rate limits follow the average bitrate in one library function (the encoder opened at the
/// highest adaptive rate, adaptive changes, the start at `--bitrate`).
@Suite struct BitRateScalingTests {
    @Test func capsKeepTheirRatioToTheAverage() {
        let settings = VideoEncoderSettings(
            averageBitRate: 2_000_000,
            dataRateLimits: [.relative(to: 2_000_000), DataRateLimit(bytes: 500_000, seconds: 2)])
        let higher = settings.withAverageBitRate(4_000_000)
        #expect(higher.averageBitRate == 4_000_000)
        #expect(higher.dataRateLimits == [DataRateLimit(bytes: 750_000, seconds: 1), DataRateLimit(bytes: 1_000_000, seconds: 2)])
        #expect(
            settings.dataRateLimits(scaledTo: 1_000_000) == [
                DataRateLimit(bytes: 187_500, seconds: 1),
                DataRateLimit(bytes: 250_000, seconds: 2),
            ])
        // Never down to nothing.
        #expect(settings.dataRateLimits(scaledTo: 0).allSatisfy { $0.bytes == 1 })
    }
}
