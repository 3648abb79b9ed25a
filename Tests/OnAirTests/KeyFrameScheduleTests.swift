import Testing

@testable import OnAirLive

/// Keyframes by media time, whatever frames a live source dropped.
@Suite struct KeyFrameScheduleTests {
    @Test func aKeyFrameIsDueOnceTheIntervalHasPassedInMediaTimeNotInFrames() {
        var schedule = KeyFrameSchedule(interval: 2, frameRate: 30)
        // Nothing is due before the first keyframe (the encoder starts with one).
        #expect(!schedule.isDue(at: 0))
        schedule.keyFrameMade(at: 0)
        #expect(!schedule.isDue(at: 1.9))
        // Half a frame early still counts (capture jitter); more does not.
        #expect(schedule.isDue(at: 2 - 0.4 / 30))
        #expect(!schedule.isDue(at: 2 - 0.6 / 30))
        // 40 frames after a keyframe, with every third frame dropped: 2 s have passed.
        schedule.keyFrameMade(at: 10)
        let times = (0..<60).filter { $0 % 3 != 2 }.map { 10 + Double($0) / 30 }
        #expect(times.count == 40)
        #expect(times.firstIndex { schedule.isDue(at: $0) } == nil)
        #expect(schedule.isDue(at: 12))
    }

    @Test func noIntervalMeansNoForcedKeyFrames() {
        var schedule = KeyFrameSchedule(interval: 0, frameRate: 30)
        schedule.keyFrameMade(at: 0)
        #expect(!schedule.isDue(at: 1000))
        let infinite = KeyFrameSchedule(interval: .infinity, frameRate: 30)
        #expect(!infinite.isDue(at: 1000))
    }
}
