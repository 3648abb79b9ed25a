#if os(Linux)
import Testing

@testable import OnAirServing

@Suite struct ServeRTSPFeedTests {
    static let lead = ServeRTSPFeed.leadNanoseconds

    /// The cache's keyframe takes the primed parameter sets' time while the clock has not
    /// passed it: ffmpeg times the keyframe's access unit by the packet it began with (the
    /// primed SPS/PPS), so a keyframe stamped at PLAY showed 49–80 ms ahead of its sound in the
    /// first second of a copy (issue 35's players test: 82.7 ms, over one frame at 15 fps).
    @Test func theFirstKeyframeTakesThePrimedTimeWhileTheLeadLasts() {
        let primed = 2_000_000_000 + Self.lead  // primed at a running time of 2 s
        // PLAY 49 ms after DESCRIBE: the primed time, not PLAY's running time plus the lead.
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: primed, running: 2_049_000_000, isVideo: true) == primed)
        // PLAY just as the clock reaches the primed time: still it.
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: primed, running: primed, isVideo: true) == primed)
        // PLAY long after DESCRIBE (a client that waits): stamped from now, never behind the clock.
        let late: Int64 = 3_000_000_000
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: primed, running: late, isVideo: true) == late + Self.lead)
        // Primed while the pipeline had no running time yet (stamped at the lead alone).
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: Self.lead, running: nil, isVideo: true) == Self.lead)
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: Self.lead, running: 100_000_000, isVideo: true) == Self.lead)
    }

    @Test func withoutPrimedVideoOrWhenAudioComesFirstTheOriginIsNowPlusTheLead() {
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: nil, running: 1_000, isVideo: true) == 1_000 + Self.lead)
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: Self.lead, running: 1_000, isVideo: false) == 1_000 + Self.lead)
        #expect(ServeRTSPFeed.originRunningTime(primedVideoAt: nil, running: nil, isVideo: false) == Self.lead)
    }
}
#endif
