import OnAirCore
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

/// The start of a stream whose audio began after the first video keyframe.
@Suite struct StartingKeyFrameTests {
    /// What `note` answers for each packet, in order.
    static func answers(_ start: inout StartingKeyFrame, _ packets: [(MediaType, Bool)]) -> [Bool] {
        packets.map { start.note($0.0, isKeyframe: $0.1) }
    }

    @Test func theFirstAudioPacketAfterTheFirstKeyFrameAsksForAnotherOnce() {
        var start = StartingKeyFrame(audioAndVideo: true)
        let asked = Self.answers(&start, [(.video, true), (.video, false), (.audio, true), (.audio, true), (.video, true)])
        // Once, at the first audio packet: later audio and keyframes ask for nothing.
        #expect(asked == [false, false, true, false, false])
        #expect(start.settled)
    }

    @Test func audioFirstOrOneKindOfMediaOwesNothing() {
        var audioFirst = StartingKeyFrame(audioAndVideo: true)
        #expect(Self.answers(&audioFirst, [(.audio, true), (.video, true), (.audio, true)]) == [false, false, false])
        var videoOnly = StartingKeyFrame(audioAndVideo: false)
        #expect(videoOnly.settled)
        #expect(Self.answers(&videoOnly, [(.video, true), (.audio, true)]) == [false, false])
    }
}
