import OnAirApple
import OnAirCore
import Testing

/// When PlaybackView's player shows each picture: the sound being heard is the clock, else the wall clock.
@Suite struct PictureTimelineTests {
    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1_000) }

    @Test func theSoundIsTheClock() {
        var timeline = PictureTimeline<Int>(soundIsClock: true)
        for index in 0..<5 { timeline.add(index, pts: Self.ms(Int64(index) * 40)) }
        // Before the sound starts nothing shows, whatever the wall clock says.
        #expect(timeline.decide(now: 100, heard: nil).show == nil)
        // Heard up to 90 ms: pictures at 0, 40 and 80 ms are due; 80 shows, the two before are late.
        let decision = timeline.decide(now: 0, heard: Self.ms(90))
        #expect(decision.show == 2 && decision.dropped == 2)
        #expect(abs((decision.nextDue ?? 0) - 0.030) < 1e-9)
        // The sound has not moved: nothing more, however much wall time passes.
        #expect(timeline.decide(now: 1_000, heard: Self.ms(90)).show == nil)
        #expect(timeline.decide(now: 1_000, heard: Self.ms(125)).show == 3)
        #expect(timeline.dropped == 2 && timeline.count == 1)
    }

    @Test func withoutSoundTheWallClockStartsAtTheFirstPicture() {
        var timeline = PictureTimeline<Int>(soundIsClock: false)
        for index in 0..<4 { timeline.add(index, pts: Self.ms(5_000 + Int64(index) * 40)) }
        #expect(timeline.decide(now: 10, heard: Self.ms(99_000)).show == 0)
        #expect(timeline.decide(now: 10.02, heard: nil).show == nil)
        #expect(timeline.decide(now: 10.041, heard: nil).show == 1)
        #expect(timeline.decide(now: 10.2, heard: nil).show == 3)
        #expect(timeline.dropped == 1)
    }

    @Test func picturesAreOrderedAndBounded() {
        var timeline = PictureTimeline<Int>(soundIsClock: true, capacity: 3)
        // Decoder output out of order (B-frames) is put back in presentation order.
        for pts in [80, 0, 40, 120, 160] { timeline.add(Int(pts), pts: Self.ms(Int64(pts))) }
        #expect(timeline.count == 3)
        // The two oldest were pushed out and count as dropped at the next decision.
        let decision = timeline.decide(now: 0, heard: Self.ms(85))
        #expect(decision.show == 80 && decision.dropped == 2)
        timeline.reset()
        #expect(timeline.count == 0 && timeline.decide(now: 0, heard: Self.ms(1_000)).show == nil)
    }
}
