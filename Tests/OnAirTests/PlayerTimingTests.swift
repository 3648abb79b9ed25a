#if os(Linux)
import OnAir
import Testing

/// The player's timing rules without a window: which frame is due, how the clock reads, how a live
/// player catches up.
struct PlayerTimingTests {
    @Test func framesWhoseTimeHasComeAreTakenAndAllButTheLastDropped() {
        let times = [1.0, 1.033, 1.067, 1.1]
        let early = FrameScheduler.decide(times: times, clock: 0.9)
        #expect(early.taken == 0 && early.show == nil)
        #expect(abs((early.nextDue ?? 0) - 0.1) < 1e-9)
        let onTime = FrameScheduler.decide(times: times, clock: 1.0)
        #expect(onTime.taken == 1 && onTime.show == 0 && onTime.dropped == 0)
        let late = FrameScheduler.decide(times: times, clock: 1.07)
        #expect(late.taken == 3 && late.show == 2 && late.dropped == 2)
        #expect(FrameScheduler.decide(times: [], clock: 5).nextDue == nil)
    }

    @Test func theAudioClockIsTheEndOfTheQueuedSoundMinusWhatWaits() {
        var clock = MasterClock(source: .audio)
        #expect(clock.time(now: 10) == nil)
        clock.audioEnd = 5.0
        clock.audioWaiting = 0.25
        #expect(clock.time(now: 10) == 4.75)
        #expect(clock.time(now: 99) == 4.75)  // the wall clock does not move it
    }

    @Test func theWallClockRunsFromItsAnchorAndStopsWhilePaused() {
        var clock = MasterClock(source: .wall)
        clock.anchor(media: 2, now: 100, delay: 0.05)
        #expect(abs((clock.time(now: 100.05) ?? 0) - 2) < 1e-9)
        #expect(abs((clock.time(now: 101.05) ?? 0) - 3) < 1e-9)
        clock.setPaused(true, now: 101.05)
        #expect(abs((clock.time(now: 105) ?? 0) - 3) < 1e-9)
        clock.setPaused(false, now: 105)
        #expect(abs((clock.time(now: 106) ?? 0) - 4) < 1e-9)
        clock.skip(0.5)
        #expect(abs((clock.time(now: 106) ?? 0) - 4.5) < 1e-9)
        clock.reset()
        #expect(clock.time(now: 106) == nil)
    }

    @Test func aLivePlayerPlaysAwayAStandingBacklogButNotItsJitter() {
        let policy = CatchUpPolicy(target: 0.01)
        // The queue swings with the arrivals' jitter, but at its lowest it is at the target.
        #expect(policy.action(queued: 0.05, lowWater: 0.01, frames: 1024, rate: 48_000) == .play)
        #expect(policy.action(queued: 0.014, lowWater: 0.014, frames: 1024, rate: 48_000) == .play)  // within the margin
        // 30 ms stand above the target: shortened by at most 10 % of the arriving run.
        #expect(policy.action(queued: 0.06, lowWater: 0.04, frames: 1024, rate: 48_000) == .shorten(samples: 102))
        // A long run just over the margin: only the excess (5.5 ms) is taken out.
        #expect(policy.action(queued: 0.0155, lowWater: 0.0155, frames: 48_000, rate: 48_000) == .shorten(samples: 264))
        // The queue now is below the mark recorded (it was just shortened): the lower counts.
        #expect(policy.action(queued: 0.012, lowWater: 0.05, frames: 1024, rate: 48_000) == .play)
        // A burst after a stall: skipped whatever the low-water mark.
        #expect(policy.action(queued: 0.5, lowWater: 0, frames: 1024, rate: 48_000) == .skipQueued)
    }

    @Test func theLowWaterMarkIsTheLeastQueuedInTheWindowAndFollowsWhatIsTakenOut() {
        var mark = AudioQueueWatermark(window: 1)
        #expect(mark.lowWater == nil)
        mark.record(queued: 0.03, now: 10)
        mark.record(queued: 0.05, now: 10.5)
        #expect(mark.lowWater == 0.03)
        mark.record(queued: 0.06, now: 11.2)  // the level at 10 is out of the window
        #expect(mark.lowWater == 0.05)
        mark.lower(by: 0.01)
        #expect(abs((mark.lowWater ?? 0) - 0.04) < 1e-12)
        mark.lower(by: 1)
        #expect(mark.lowWater == 0)
        mark.reset()
        #expect(mark.lowWater == nil)
    }

    @Test func theDisplayLeadFollowsThePresentTimeSmoothedAndBounded() {
        var lead = 0.0
        for _ in 0..<100 { lead = DisplayLead.update(lead, sample: 0.02) }
        #expect(abs(lead - 0.02) < 0.001)
        let once = DisplayLead.update(lead, sample: 2)  // a stall counts as the maximum, once
        #expect(once <= lead + (DisplayLead.maximum - lead) * DisplayLead.weight + 1e-12)
        #expect(DisplayLead.update(0, sample: -1) == 0)
    }
}

/// The screen recording's figures from observed pictures (no decoding).
struct ScreenRecordingFiguresTests {
    @Test func orderSkipsRepeatsAndLatencyComeFromTheCodesSeen() {
        // Pictures every 1/60 s from wall time 1000 s; frames 0…9 at 30 fps, each twice, except
        // frame 5 (never seen) and one picture showing frame 2 again after frame 3.
        let shown = [0, 0, 1, 1, 2, 2, 3, 3, 2, 4, 4, 6, 6, 7, 7, 8, 8, 9, 9]
        let observations = shown.enumerated().map { position, index in
            FrameObservation(
                presentationTime: 1000 + Double(position) / 60, frameIndex: index,
                captureMicroseconds: Int64(index) * 33_333, whiteness: 0)
        }
        // Each frame was captured 80 ms before its first picture.
        var firstPicture: [Int: Double] = [:]
        for observation in observations where firstPicture[observation.frameIndex!] == nil {
            firstPicture[observation.frameIndex!] = observation.presentationTime
        }
        let codes = firstPicture.mapValues { Int64((($0 - 0.08) * 1_000_000).rounded()) }
        let report = ScreenRecordingAnalysis.report(observations: observations, wallCodes: codes, beepTimes: [], settle: 0)
        #expect(report.recordedFrames == shown.count)
        #expect(report.distinctFrames == 9)
        #expect(report.skipped == 1)
        #expect(report.outOfOrder == 1)
        #expect(report.repeated == 9)
        #expect(report.latencyMs?.p50 == 80)
        #expect(report.latencyMs?.samples == 9)
    }
}
#endif
