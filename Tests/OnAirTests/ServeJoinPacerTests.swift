#if os(Linux)
import Testing

@testable import OnAirServing

/// The join pacer of RTSP over UDP, on times the test gives.
@Suite struct ServeJoinPacerTests {
    @Test func theCacheLeavesAtTwiceRealTimeAndLivePacketsAreNeverHeld() {
        var pacer = ServeJoinPacer(speed: 2)
        // The keyframe of a 2 s cache goes at once, at clock 100.
        #expect(pacer.delay(media: 10, now: 100) == 0)
        // One second of media later in the cache: due half a second after the start.
        #expect(abs(pacer.delay(media: 11, now: 100.1) - 0.4) < 1e-9)
        // The newest cached packet (2 s of media): due at 101.
        #expect(abs(pacer.delay(media: 12, now: 100.5) - 0.5) < 1e-9)
        // Live from then on: media at real time is always past its slot.
        #expect(pacer.delay(media: 12.5, now: 101.5) == 0)
        #expect(pacer.delay(media: 13, now: 102) == 0)
    }

    @Test func mediaStampedBeforeTheFirstPacketIsNotHeld() {
        var pacer = ServeJoinPacer(speed: 4)
        #expect(pacer.delay(media: 5, now: 0) == 0)
        // Audio stamped a little before the keyframe.
        #expect(pacer.delay(media: 4.9, now: 0) == 0)
        #expect(abs(pacer.delay(media: 7, now: 0) - 0.5) < 1e-9)
    }
}
#endif
