#if os(Linux)
import OnAir
import Testing

/// Telling the probe's start-up backlog from live frames.
@Suite struct BacklogDetectorTests {
    @Test func framesDecodedBackToBackAreBacklogUntilOneHadToWait() {
        var detector = BacklogDetector(frameDuration: 1.0 / 30)
        // 20 frames out of the probe buffer, 2 ms apart, then live at 33 ms.
        var wall = 100.0
        var live: [Bool] = []
        for _ in 0..<20 { live.append(detector.frame(wall: wall)); wall += 0.002 }
        for _ in 0..<5 { wall += 0.031; live.append(detector.frame(wall: wall)) }
        #expect(live.prefix(20).allSatisfy { !$0 })
        #expect(live.suffix(5).allSatisfy { $0 })
        #expect(detector.backlogFrames == 20)
    }

    @Test func aReceiverThatNeverCatchesUpIsMeasuredAfterTheGiveUpTime() {
        var detector = BacklogDetector(frameDuration: 1.0 / 30)
        var wall = 0.0
        var firstLive: Double?
        while wall < 5 {
            if detector.frame(wall: wall), firstLive == nil { firstLive = wall }
            wall += 0.01  // always decoding: never waits
        }
        #expect(firstLive.map { abs($0 - detector.giveUpSeconds) < 0.02 } == true, "\(String(describing: firstLive))")
    }

    @Test func whereThePacketLayDecidesWhenItIsKnown() {
        var detector = BacklogDetector(frameDuration: 1.0 / 30)
        // Probed frames decoded slowly (a big keyframe) are still backlog; the first frame read
        // after the probe is live, whatever its timing.
        let live = [
            detector.frame(wall: 0, readWhileProbing: true), detector.frame(wall: 0.05, readWhileProbing: true),
            detector.frame(wall: 0.052, readWhileProbing: true), detector.frame(wall: 0.053, readWhileProbing: false),
            detector.frame(wall: 0.054, readWhileProbing: true),
        ]  // drained stays drained
        #expect(live == [false, false, false, true, true])
        #expect(detector.backlogFrames == 3)
    }
}
#endif
