#if os(Linux)
import Testing

@testable import OnAirGStreamer

@Suite struct GStreamerAppSourceTests {
    /// Issue 35's single-frame RTSP copies: a client's primed parameter sets were stamped while
    /// its pipeline went to PLAYING, clock set and base time not yet: the clock's own time (the
    /// capture on loopback showed the next packet's RTP time 13,090 s behind, the machine's uptime).
    @Test func aRunningTimeOnlyOnceThePipelineIsPlayingWithABaseTime() {
        let uptime: UInt64 = 13_090 * 1_000_000_000
        // Going to PLAYING: the clock is there, the base time not yet, the state not PLAYING.
        #expect(GStreamerAppSource.runningTime(clock: uptime, base: 0, playing: false) == nil)
        // A base time set, the change not complete yet.
        #expect(GStreamerAppSource.runningTime(clock: uptime, base: uptime - 5, playing: false) == nil)
        // PLAYING with no base time would still read the clock's own time: refused.
        #expect(GStreamerAppSource.runningTime(clock: uptime, base: 0, playing: true) == nil)
        #expect(GStreamerAppSource.runningTime(clock: nil, base: 0, playing: true) == nil)
        // PLAYING: the clock less the base time.
        #expect(GStreamerAppSource.runningTime(clock: uptime, base: uptime - 250_000_000, playing: true) == 250_000_000)
        #expect(GStreamerAppSource.runningTime(clock: uptime, base: uptime + 1, playing: true) == 0)
    }
}
#endif
