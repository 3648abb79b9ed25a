import OnAir
import OnAirCore
import Testing

/// `AdaptiveBitrateController` fed with synthetic link readings every 0.25 s.
@Suite struct AdaptiveBitrateControllerTests {
    static let settings = AdaptiveBitrateSettings(
        minimumBitRate: 200_000, maximumBitRate: 1_500_000,
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
            return controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(sent / 8), queuedSeconds: queuedBits / rate,
                    queuedBytes: Int(queuedBits / 8), isConnected: true))
        }
    }

    @Test func aSlowLinkStepsDownWithinTwoSecondsAndTheQueueStaysBounded() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var link = Link()
        var firstDown: Double?
        var maxQueueLate = 0.0
        var ratesLate: [Int] = []
        for _ in 0..<80 {  // 20 s at 500 kb/s
            if let decision = link.advance(&controller, capacity: 500_000), decision.direction == .down, firstDown == nil {
                firstDown = link.time
            }
            if link.time > 10 {
                maxQueueLate = max(maxQueueLate, link.queuedBits / 500_000)
                ratesLate.append(controller.bitRate)
            }
        }
        #expect((firstDown ?? 99) <= 2, "first step down at \(firstDown ?? -1) s")
        // Settled: probes above the link come and go, but on average the stream fits it.
        let averageLate = ratesLate.reduce(0, +) / max(1, ratesLate.count)
        #expect(averageLate <= 500_000 - 128_000, "settled at \(averageLate) on average (\(ratesLate))")
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

    @Test func stepsUpFasterAndFasterAfterTheLinkRecoversAndNeverAboveTheMaximum() throws {
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
        #expect(ups.count >= 3)
        #expect(ups.allSatisfy { $0.to <= 1_500_000 })
        // The first step up goes no higher than the link estimate allows (85 % of what the slow
        // link delivered, less the audio); from there the probes grow (up to the maximum step),
        // always spaced.
        let estimate = try #require(ups.first?.linkEstimate)
        #expect(estimate <= 520_000 && estimate >= 400_000, "estimate \(estimate)")
        #expect(
            ups[0].to <= Int(0.85 * Double(estimate)) - 128_000 + 1 || ups[0].from >= Int(0.8 * Double(estimate)) - 128_000,
            "\(ups[0].summary)")
        #expect(factors.allSatisfy { $0 <= 1.01 + Self.settings.maximumStepUpFraction }, "\(factors)")
        #expect(factors.contains { $0 >= 1.4 }, "steps do not grow: \(factors)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= Self.settings.followingStepUpInterval }, "\(times)")
        #expect(controller.bitRate == 1_500_000)
        #expect((times.first ?? 99) - 10 <= 3, "first step up \(times.first ?? -1) s")
        // From a third of the maximum back to it within 7 s of the link's return.
        #expect((times.last ?? 99) - 10 <= 7, "back at the maximum only at \(times.last ?? -1) s")
    }

    @Test func hysteresisAQueueThatIsDrainingIsNotCutAgain() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        // 1.6 Mb/s link; 2.4 s to send what is queued, falling 0.3 s per second: the last cut is working.
        var decisions = 0
        for tick in 0..<16 {
            let time = Double(tick) * 0.25
            let delay = 2.4 - 0.3 * time
            if controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(time * 200_000), queuedSeconds: delay,
                    queuedBytes: Int(delay * 200_000), isConnected: true)) != nil
            {
                decisions += 1
            }
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
            #expect(
                controller.update(
                    LinkMeasurement(
                        time: 100 + Double(tick) * 0.25, bytesSent: 0, queuedSeconds: 5,
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
                (
                    link: index,
                    measurement: LinkMeasurement(
                        time: state.time, bytesSent: Int(state.sent / 8),
                        queuedSeconds: state.queuedBits / rate, queuedBytes: Int(state.queuedBits / 8), isConnected: true)
                )
            }
            decision = decision ?? controller.update(readings)
        }
        let down = decision
        #expect(down?.direction == .down)
        #expect((down?.linkThroughput ?? 0) < 700_000, "\(String(describing: down))")
        #expect(down?.summary.hasPrefix("abr: 1500 → ") == true, "\(down?.summary ?? "")")
    }

    /// A link that slows behind a socket buffer: the buffer takes the first bytes at full speed, so
    /// what enters the socket still shows the past when the queue starts to grow; the socket's own
    /// figures (bytes acknowledged, bytes in its buffer) show the new rate. Within 2.5 s the
    /// bitrate fits the new rate, and the delay from encoder to wire stays under 1.5 s.
    @Test func stepsDownToFitALinkThatSlowedBehindASocketBuffer() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        let capacity = 500_000.0, bufferBits = 800_000.0  // 100 kB: 1.6 s at the slow rate
        var time = 0.0, sent = 0.0, queued = 0.0, inBuffer = 0.0, delivered = 0.0
        var fitsAt: Double?
        var worstDelay = 0.0
        var decisions: [String] = []
        // Fast for 3 s (the buffer stays empty), then 500 kb/s for 10 s.
        for tick in 0..<52 {
            let rate = Double(controller.bitRate + controller.settings.audioBitRate)
            time += 0.25
            let linkRate = tick < 12 ? 10_000_000.0 : capacity
            let drained = min(inBuffer, linkRate * 0.25)  // the link drains the socket buffer
            inBuffer -= drained
            delivered += drained
            queued += rate * 0.25
            let moved = min(queued, bufferBits - inBuffer)  // then the buffer takes what fits
            queued -= moved
            inBuffer += moved
            sent += moved
            let socket = TransportMeasurement(bytesAcknowledged: Int(delivered / 8), queuedBytes: Int(inBuffer / 8))
            if let decision = controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(sent / 8), queuedSeconds: queued / rate,
                    queuedBytes: Int(queued / 8), isConnected: true, transport: socket))
            {
                decisions.append(String(format: "%.2f s: ", time) + decision.summary)
            }
            if tick >= 12 {
                worstDelay = max(worstDelay, (queued + inBuffer) / capacity)
                if fitsAt == nil && controller.bitRate + 128_000 <= Int(capacity) { fitsAt = time - 3 }
            }
        }
        print(decisions.joined(separator: "\n"))
        #expect((fitsAt ?? 99) <= 2.5, "fits the link \(fitsAt ?? -1) s after it slowed")
        #expect(worstDelay < 1.5, "delay \(worstDelay) s")
        #expect(decisions.first?.contains("→") == true)
    }

    /// The early signals: queueing delay that grows in the network (the round trip rises above its
    /// minimum while the socket's buffer stays small) and packets the transport drops (SRT) step
    /// down before OnAir's own queue shows anything.
    @Test func roundTripGrowthAndTransportDropsStepDown() {
        var controller = AdaptiveBitrateController(settings: Self.settings)
        var decision: BitrateDecision?
        for tick in 1...12 where decision == nil {
            let time = Double(tick) * 0.25
            let rtt = 0.02 + max(0, time - 1) * 0.4  // the network's queue grows 0.4 s per second from 1 s
            let socket = TransportMeasurement(
                bytesAcknowledged: Int(time * 150_000), queuedBytes: 4_000, roundTripTime: rtt,
                minimumRoundTripTime: 0.02)
            decision = controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(time * 150_000) + 4_000, queuedSeconds: 0,
                    queuedBytes: 0, isConnected: true, transport: socket))
        }
        #expect(decision?.direction == .down, "\(decision?.summary ?? "none")")
        #expect(decision?.cause?.contains("delay growing") == true, "\(decision?.summary ?? "none")")

        var srt = AdaptiveBitrateController(settings: Self.settings)
        var dropped: BitrateDecision?
        for tick in 1...12 where dropped == nil {
            let time = Double(tick) * 0.25
            let stats = TransportMeasurement(
                bytesAcknowledged: Int(time * 180_000), queuedBytes: 2_000, queuedSeconds: 0.05,
                droppedPackets: tick > 6 ? 5 * (tick - 6) : 0)
            dropped = srt.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(time * 180_000) + 2_000, queuedSeconds: 0,
                    queuedBytes: 0, isConnected: true, transport: stats))
        }
        #expect(dropped?.direction == .down && dropped?.cause?.contains("dropped") == true, "\(dropped?.summary ?? "none")")
    }

    /// A 1 Mb/s link for 30 s with the round trip showing the network's queue: after settling,
    /// the stream uses at least 75 % of the link and the delay stays under a second.
    @Test func aConstrainedLinkIsUsedWellWithASmallDelay() {
        var controller = AdaptiveBitrateController(
            settings: AdaptiveBitrateSettings(
                minimumBitRate: 200_000, maximumBitRate: 2_500_000, initialBitRate: 2_500_000, audioBitRate: 128_000))
        let capacity = 1_000_000.0, bufferBits = 300_000.0
        var time = 0.0, sent = 0.0, queued = 0.0, inBuffer = 0.0, delivered = 0.0, inNetwork = 0.0
        var deliveredLate = 0.0, worstDelayLate = 0.0
        var decisions: [String] = []
        for tick in 0..<120 {
            let rate = Double(controller.bitRate + controller.settings.audioBitRate)
            time += 0.25
            // Media enters OnAir's queue, the socket takes what fits, hands it to the network (a
            // shaper's queue), which passes `capacity`; within a tick all of this flows together.
            queued += rate * 0.25
            let moved = min(queued, max(0, bufferBits - inBuffer))
            queued -= moved
            inBuffer += moved
            sent += moved
            inNetwork += inBuffer
            inBuffer = 0
            let out = min(inNetwork, capacity * 0.25)
            inNetwork -= out
            delivered += out
            let rtt = 0.01 + inNetwork / capacity
            let socket = TransportMeasurement(
                bytesAcknowledged: Int(delivered / 8), queuedBytes: Int((inBuffer + inNetwork) / 8),
                roundTripTime: rtt, minimumRoundTripTime: 0.01)
            if let decision = controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(sent / 8), queuedSeconds: queued / rate,
                    queuedBytes: Int(queued / 8), isConnected: true, transport: socket))
            {
                decisions.append(String(format: "%.2f s: ", time) + decision.summary)
            }
            if tick >= 40 {
                deliveredLate += out
                worstDelayLate = max(worstDelayLate, (queued + inBuffer + inNetwork) / capacity)
            }
        }
        let use = deliveredLate / (capacity * 20)
        print(decisions.joined(separator: "\n"))
        print(String(format: "link use %.2f, worst delay %.2f s", use, worstDelayLate))
        #expect(use >= 0.75, "link use \(use)")
        #expect(worstDelayLate < 1.0, "delay \(worstDelayLate) s")
    }

    /// A link that collapses under the stream (a fifth of it) has seconds queued by the time the
    /// step down comes: that decision also cuts the backlog; a link that is only a little too slow
    /// never has its backlog cut.
    @Test func aCollapsedLinkHasItsBacklogCutAMildOneNot() {
        func downs(capacity: Double, readingsEvery step: Double) -> [BitrateDecision] {
            var controller = AdaptiveBitrateController(settings: Self.settings)
            var link = Link()
            var result: [BitrateDecision] = []
            for _ in 0..<Int(8 / step) {
                if let decision = link.advance(&controller, capacity: capacity, step: step), decision.direction == .down {
                    result.append(decision)
                }
            }
            return result
        }
        // Readings a second apart (a starved measuring thread): 1.6 Mb/s into 0.3 Mb/s queues 4 s.
        let collapsed = downs(capacity: 300_000, readingsEvery: 1.0)
        let cut = collapsed.first { !$0.cutLinks.isEmpty }
        #expect(cut?.cutLinks == [0], "\(collapsed.map(\.summary))")
        #expect(cut?.summary.contains("backlog cut") == true)
        #expect(collapsed.filter { !$0.cutLinks.isEmpty }.allSatisfy { $0.queuedSeconds > 1 })
        let mild = downs(capacity: 1_400_000, readingsEvery: 0.25)
        #expect(!mild.isEmpty && mild.allSatisfy { $0.cutLinks.isEmpty }, "\(mild.map(\.summary))")
    }

    /// A link with a shaper that passes `capacity` and drops what exceeds `bufferSeconds` of
    /// queue; media enters at the controller's rate, `keyFrameBits` of it at once every 2 s.
    struct ShapedLink {
        var time = 0.0, sent = 0.0, queuedBits = 0.0, delivered = 0.0, lost = 0
        var bufferSeconds = 0.4

        mutating func advance(_ controller: inout AdaptiveBitrateController, capacity: Double, keyFrameBits: Double = 0) -> BitrateDecision?
        {
            let rate = Double(controller.bitRate + controller.settings.audioBitRate)
            let ticks = Int((time / 0.25).rounded())
            time += 0.25
            var entering = max(0, rate - keyFrameBits / 2) * 0.25
            if ticks % 8 == 0 { entering += keyFrameBits }
            sent += entering
            queuedBits += entering
            let out = min(queuedBits, capacity * 0.25)
            queuedBits -= out
            delivered += out
            let overflow = max(0, queuedBits - capacity * bufferSeconds)
            if overflow > 0 {
                queuedBits -= overflow
                delivered += overflow  // gone from the sender's view: lost, then resent
                lost += Int(overflow / 8 / 1316) + 1
            }
            let socket = TransportMeasurement(
                bytesAcknowledged: Int(delivered / 8), queuedBytes: Int(queuedBits / 8),
                roundTripTime: 0.01 + queuedBits / capacity, minimumRoundTripTime: 0.01,
                lostPackets: lost)
            return controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(sent / 8), queuedSeconds: 0, queuedBytes: 0,
                    isConnected: true, transport: socket))
        }
    }

    static let configured = AdaptiveBitrateSettings(
        minimumBitRate: 200_000, maximumBitRate: 2_500_000,
        initialBitRate: 2_500_000, audioBitRate: 128_000)

    /// 2.5 Mb/s of video and 128 kb/s of audio on a 3 Mb/s link (88 % of it) with a 100 kB
    /// keyframe every 2 s: each keyframe queues for a moment and drains; that is no congestion,
    /// and the configured rate stays.
    @Test func keyframeBurstsOnANearlyFullLinkAreNoCongestion() {
        var controller = AdaptiveBitrateController(settings: Self.configured)
        var link = ShapedLink()
        var decisions: [String] = []
        for _ in 0..<120 {
            if let decision = link.advance(&controller, capacity: 3_000_000, keyFrameBits: 800_000) {
                decisions.append(String(format: "%.2f s: ", link.time) + decision.summary)
            }
        }
        #expect(decisions.isEmpty, "\(decisions)")
        #expect(controller.bitRate == 2_500_000)
    }

    /// 50 → 0.5 → 3 Mb/s: once the link carries the configured rate again (88 % of it, more than
    /// `headroom` × the estimate) the controller gets back to it within 6 s, keyframes and all.
    @Test func backToTheConfiguredRateOnALinkThatJustCarriesIt() {
        var controller = AdaptiveBitrateController(settings: Self.configured)
        var link = ShapedLink()
        var decisions: [String] = []
        var backAt: Double?
        for tick in 0..<160 {
            let capacity = tick < 20 ? 50_000_000.0 : tick < 80 ? 500_000 : 3_000_000
            if let decision = link.advance(&controller, capacity: capacity, keyFrameBits: Double(controller.bitRate) * 0.3) {
                decisions.append(String(format: "%.2f s: ", link.time) + decision.summary)
            }
            if tick >= 80, backAt == nil, controller.bitRate == 2_500_000 { backAt = link.time - 20 }
        }
        print(decisions.joined(separator: "\n"))
        #expect((backAt ?? 99) <= 6, "back at the configured rate \(backAt ?? -1) s after the link returned")
        #expect(controller.bitRate == 2_500_000, "\(decisions.suffix(3))")
    }

    /// A bottleneck that drops what exceeds 0.4 s of queue caps the delay seen below
    /// `queueThreshold`: a queue that stands there (with losses) is congestion all the same.
    @Test func aStandingQueueAtABottleneckThatDropsStepsDown() throws {
        var controller = AdaptiveBitrateController(settings: Self.configured)
        var link = ShapedLink()
        var down: BitrateDecision?
        for _ in 0..<40 where down == nil {
            down = link.advance(&controller, capacity: 2_400_000)
        }
        let decision = try #require(down)
        #expect(decision.direction == .down)
        #expect(decision.to + 128_000 <= 2_400_000, "\(decision.summary)")
    }

    /// At its minimum the bitrate cannot step down, but a backlog that keeps the viewer more than
    /// `cutBacklogDelay` behind (counted at the link's rate: right after a collapse OnAir's queue
    /// holds media encoded for a faster link) is still cut, at most once every `minimumCutInterval`.
    @Test func aBacklogIsCutAtTheMinimumBitrate() {
        let settings = AdaptiveBitrateSettings(
            minimumBitRate: 200_000, maximumBitRate: 2_500_000, initialBitRate: 200_000,
            audioBitRate: 128_000)
        var controller = AdaptiveBitrateController(settings: settings)
        var cuts: [BitrateDecision] = []
        var cutTimes: [Double] = []
        // 0.3 Mb/s delivered; the queue grows 60 kB a second, holding little media time.
        for tick in 1...40 {
            let time = Double(tick) * 0.25
            let queued = Int(time * 60_000)
            if let decision = controller.update(
                LinkMeasurement(
                    time: time, bytesSent: Int(time * 37_500), queuedSeconds: 0.3,
                    queuedBytes: queued, isConnected: true))
            {
                #expect(decision.from == decision.to && decision.to == 200_000, "\(decision.summary)")
                if !decision.cutLinks.isEmpty {
                    cuts.append(decision)
                    cutTimes.append(time)
                }
            }
        }
        #expect(!cuts.isEmpty)
        // The queue here never shrinks: every cut the interval allows comes, and no more.
        #expect(cuts.count <= Int(10 / settings.minimumCutInterval) + 1, "\(cuts.map(\.summary))")
        #expect(zip(cutTimes, cutTimes.dropFirst()).allSatisfy { $1 - $0 >= settings.minimumCutInterval }, "\(cutTimes)")
        #expect(cuts.first?.summary.hasPrefix("abr: 200 kb/s kept (") == true, "\(cuts.first?.summary ?? "")")
    }

    /// While adapting, the encoder's data-rate limits allow at most `peakRatio` × the bitrate.
    @Test func encoderPeaksAreHeldToThePeakRatio() {
        let settings = Self.configured
        let limits = settings.dataRateLimits(
            [DataRateLimit(bytes: 37_500, seconds: 1), DataRateLimit(bytes: 10_000, seconds: 1)],
            bitRate: 200_000)
        #expect(limits == [DataRateLimit(bytes: 28_750, seconds: 1), DataRateLimit(bytes: 10_000, seconds: 1)])
    }
}
