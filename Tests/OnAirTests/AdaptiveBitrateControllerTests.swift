import OnAir
import Testing

/// `AdaptiveBitrateController` fed with synthetic link readings every 0.25 s.
@Suite struct AdaptiveBitrateControllerTests {
    static let settings = AdaptiveBitrateSettings(minimumBitRate: 200_000, maximumBitRate: 1_500_000,
                                                  initialBitRate: 1_500_000, audioBitRate: 128_000)

    /// A simulated link: media enters at the controller's rate, leaves at `capacity` bits/s.
    struct Link {
        var time = 0.0
        var sent = 0.0
        var queuedBits = 0.0

        mutating func advance(_ controller: inout AdaptiveBitrateController, capacity: Double, step: Double = 0.25) -> BitrateDecision? {
            let rate = Double(controller.bitRate + controller.settings.audioBitRate)
            time += step
            queuedBits += rate * step
            let out = min(queuedBits, capacity * step)
            queuedBits -= out
            sent += out
            return controller.update(LinkMeasurement(time: time, bytesSent: Int(sent / 8), queuedSeconds: queuedBits / rate,
                                                     queuedBytes: Int(queuedBits / 8), isConnected: true))
        }
    }

    @Test func aSlowLinkStepsDownWithinTwoSecondsAndTheQueueStaysBounded() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var link = Link()
        var firstDown: Double?
        var maxQueueLate = 0.0
        for _ in 0..<80 {  // 20 s at 500 kb/s
            if let decision = link.advance(&controller, capacity: 500_000), decision.direction == .down, firstDown == nil {
                firstDown = link.time
            }
            if link.time > 10 { maxQueueLate = max(maxQueueLate, link.queuedBits / 500_000) }
        }
        #expect((firstDown ?? 99) <= 2, "first step down at \(firstDown ?? -1) s")
        #expect(controller.bitRate <= 500_000 - 128_000, "settled at \(controller.bitRate)")
        #expect(controller.bitRate >= 200_000)
        // Probing up may overshoot until the 0.5 s threshold turns it back, one reading late at most.
        #expect(maxQueueLate < 0.6, "queue \(maxQueueLate) s in the last 10 s")
    }

    @Test func aLinkThatKeepsUpChangesNothing() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var link = Link()
        for _ in 0..<80 { #expect(link.advance(&controller, capacity: 10_000_000) == nil) }
        #expect(controller.bitRate == 1_500_000 && controller.changes == 0)
    }

    @Test func stepsUpFasterAndFasterAfterTheLinkRecoversAndNeverAboveTheMaximum() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var link = Link()
        for _ in 0..<40 { _ = link.advance(&controller, capacity: 500_000) }
        let low = controller.bitRate
        var ups: [BitrateDecision] = []
        var times: [Double] = []
        for _ in 0..<240 {
            if let decision = link.advance(&controller, capacity: 10_000_000) {
                #expect(decision.direction == .up)
                ups.append(decision)
                times.append(link.time)
            }
        }
        #expect(low < 500_000)
        let factors = ups.map { Double($0.to) / Double($0.from) }
        print("step ups at \(times) s, factors \(factors)")
        #expect(ups.count >= 4)
        #expect(ups.allSatisfy { $0.to <= 1_500_000 })
        // Growing steps (up to +50 %), but small ones within 15 % of what the slow link carried
        // for video (500 kb/s less the audio), always spaced.
        #expect(factors.allSatisfy { $0 <= 1.51 }, "\(factors)")
        #expect(factors.contains { $0 >= 1.4 }, "steps do not grow: \(factors)")
        let carried = 500_000.0 - 128_000
        let nearCarried = ups.filter { Double($0.from) < 1.15 * carried && Double($0.to) > 0.85 * carried }
        #expect(!nearCarried.isEmpty)
        for up in nearCarried { #expect(Double(up.to) <= Double(up.from) * 1.16, "\(up.from) → \(up.to) near \(carried)") }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= Self.settings.followingStepUpInterval }, "\(times)")
        #expect(controller.bitRate == 1_500_000)
        #expect((times.first ?? 99) - 10 <= 5, "first step up \(times.first ?? -1) s")
        // From a quarter of the maximum back to it within 15 s (+15 % every 3 s took over 25 s).
        #expect((times.last ?? 99) - 10 <= 15, "back at the maximum only at \(times.last ?? -1) s")
    }

    @Test func hysteresisAQueueThatIsDrainingIsNotCutAgain() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        // 1.6 Mb/s link; 2.4 s to send what is queued, falling 0.3 s per second: the last cut is working.
        var decisions = 0
        for tick in 0..<16 {
            let time = Double(tick) * 0.25
            let delay = 2.4 - 0.3 * time
            if controller.update(LinkMeasurement(time: time, bytesSent: Int(time * 200_000), queuedSeconds: delay,
                                                 queuedBytes: Int(delay * 200_000), isConnected: true)) != nil { decisions += 1 }
        }
        // The first readings (no trend yet) may cut once; a falling queue does not cut again.
        #expect(decisions <= 1)
    }

    @Test func neverBelowTheMinimumAndOfflineReadingsAreIgnored() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var link = Link()
        for _ in 0..<80 { _ = link.advance(&controller, capacity: 50_000) }
        #expect(controller.bitRate == 200_000)
        let before = controller.changes
        for tick in 0..<40 {
            #expect(controller.update(LinkMeasurement(time: 100 + Double(tick) * 0.25, bytesSent: 0, queuedSeconds: 5,
                                                      queuedBytes: 1_000_000, isConnected: false)) == nil)
        }
        #expect(controller.changes == before)
    }

    @Test func theWorstOfSeveralLinksDecides() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var fast = Link(), slow = Link()
        var decision: BitrateDecision?
        for _ in 0..<12 {
            let rate = Double(controller.bitRate + 128_000)
            for link in [0, 1] {
                let capacity = link == 0 ? 10_000_000.0 : 600_000
                var state = link == 0 ? fast : slow
                state.time += 0.25
                state.queuedBits += rate * 0.25
                let out = min(state.queuedBits, capacity * 0.25)
                state.queuedBits -= out
                state.sent += out
                if link == 0 { fast = state } else { slow = state }
            }
            let readings = [fast, slow].enumerated().map { index, state in
                (link: index, measurement: LinkMeasurement(time: state.time, bytesSent: Int(state.sent / 8),
                                                           queuedSeconds: state.queuedBits / rate, queuedBytes: Int(state.queuedBits / 8), isConnected: true))
            }
            decision = decision ?? controller.update(readings)
        }
        let down = decision
        #expect(down?.direction == .down)
        #expect((down?.linkThroughput ?? 0) < 700_000, "\(String(describing: down))")
        #expect(down?.summary.hasPrefix("abr: 1500 → ") == true, "\(down?.summary ?? "")")
    }

    /// A link that slows behind a socket buffer: the buffer takes the first bytes at full speed, so
    /// the one-second throughput still shows the past when the queue starts to grow. The first
    /// step down must already fit the new rate.
    @Test func theFirstStepDownFitsALinkThatSlowedBehindASocketBuffer() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        let capacity = 500_000.0, bufferBits = 800_000.0  // 100 kB: 1.6 s at the slow rate
        var time = 0.0, sent = 0.0, queued = 0.0, inBuffer = 0.0
        var first: BitrateDecision?
        // Fast for 3 s (the buffer stays empty), then 500 kb/s.
        for tick in 0..<120 where first == nil {
            let rate = Double(controller.bitRate + controller.settings.audioBitRate)
            time += 0.25
            let linkRate = tick < 12 ? 10_000_000.0 : capacity
            inBuffer = max(0, inBuffer - linkRate * 0.25)  // the link drains the socket buffer
            queued += rate * 0.25
            let moved = min(queued, bufferBits - inBuffer)  // then the buffer takes what fits
            queued -= moved
            inBuffer += moved
            sent += moved
            let decision = controller.update(LinkMeasurement(time: time, bytesSent: Int(sent / 8), queuedSeconds: queued / rate,
                                                             queuedBytes: Int(queued / 8), isConnected: true))
            if let decision, decision.direction == .down { first = decision }
        }
        let down = first
        print("first step down: \(down?.summary ?? "none")")
        #expect((down?.to ?? .max) <= Int(capacity) - 128_000, "\(down?.summary ?? "none")")
    }
}
