#if os(Linux)
import Testing

@testable import OnAir
@testable import OnAirStreaming

/// `SRTSendGate` against a simulated bottleneck: a FIFO link of a given rate (what libsrt holds
/// is what the link has not delivered yet), fed by a stream of 1316-byte messages at a given rate
/// with a keyframe burst every second; whatever the gate holds waits in the sender's own queue.
@Suite struct SRTSendGateTests {
    struct Outcome {
        /// Per message handed over: seconds from hand-over to delivery, and the hand-over time.
        var delays: [(handed: Double, delay: Double)] = []
        /// The most bytes the sender's own queue held.
        var mostWaiting = 0
        /// The longest the sender's own queue held a message or more without a break, in seconds.
        var longestWait = 0.0

        func worstDelay(from start: Double, to end: Double = .infinity) -> Double {
            delays.filter { $0.handed >= start && $0.handed < end }.map(\.delay).max() ?? 0
        }
    }

    /// Runs `seconds` in 1 ms steps; `linkRate(t)` and `streamRate` in bits per second. With an
    /// `acknowledgementInterval`, deliveries are acknowledged in batches at its multiples (libsrt's
    /// full ACK every 10 ms), else one by one a round trip after delivery.
    func simulate(
        seconds: Double, streamRate: Double, keyFrameBytes: Int = 0, latency: Double = 0.12,
        roundTrip: Double = 0, acknowledgementInterval: Double = 0, gated: Bool = true,
        gate initial: SRTSendGate = SRTSendGate(), linkRate: (Double) -> Double
    ) -> Outcome {
        var gate = initial
        var outcome = Outcome()
        var waiting = 0.0  // bytes in the sender's queue (encoded, not handed over)
        var inFlight: [(bytes: Int, handed: Double, left: Double)] = []
        var unacknowledged: [(bytes: Int, acknowledgedAt: Double)] = []  // sent, the acknowledgement on its way
        var credit = 0.0  // bytes the link may still deliver this step
        let step = 0.001
        var t = 0.0
        var nextKeyFrame = 0.0
        var waitingSince: Double?
        while t < seconds {
            waiting += streamRate / 8 * step
            if t >= nextKeyFrame {
                waiting += Double(keyFrameBytes)
                nextKeyFrame += 1
            }
            // The link delivers in order.
            credit += linkRate(t) / 8 * step
            while let first = inFlight.first, credit >= first.left {
                credit -= first.left
                outcome.delays.append((first.handed, t - first.handed + roundTrip / 2))
                var acknowledgedAt = t + roundTrip
                if acknowledgementInterval > 0 {
                    acknowledgedAt = ((acknowledgedAt / acknowledgementInterval).rounded(.down) + 1) * acknowledgementInterval
                }
                unacknowledged.append((first.bytes, acknowledgedAt))
                inFlight.removeFirst()
            }
            while let first = unacknowledged.first, first.acknowledgedAt <= t { unacknowledged.removeFirst() }
            if var first = inFlight.first {
                first.left -= credit
                inFlight[0] = first
                credit = 0
            } else {
                credit = 0
            }
            // The sender hands over whole messages while the gate lets it.
            while waiting >= 1316 {
                let buffered = inFlight.reduce(0) { $0 + Int($1.left.rounded(.up)) } + unacknowledged.reduce(0) { $0 + $1.bytes }
                if gated && !gate.allows(at: t, bufferedBytes: buffered, latency: latency, roundTrip: roundTrip) { break }
                gate.hand(1316, at: t)
                inFlight.append((1316, t, 1316))
                waiting -= 1316
            }
            outcome.mostWaiting = max(outcome.mostWaiting, Int(waiting))
            if waiting >= 1316 {
                waitingSince = waitingSince ?? t
                outcome.longestWait = max(outcome.longestWait, t - waitingSince!)
            } else {
                waitingSince = nil
            }
            t += step
        }
        return outcome
    }

    @Test func aCollapsingLinkKeepsTheBacklogOutOfTheTransport() {
        // 2.5 Mb/s into a link that falls from 50 to 0.5 Mbit/s at 1 s (the encoder not adapting).
        let link = { (t: Double) -> Double in t < 1 ? 50_000_000 : 500_000 }
        let gated = simulate(seconds: 4, streamRate: 2_500_000, linkRate: link)
        let ungated = simulate(seconds: 4, streamRate: 2_500_000, gated: false, linkRate: link)
        // Without the gate every byte queues in the transport: seconds behind (what a receiver
        // with a 120 ms latency turns into holes once the bottleneck's queue overflows).
        #expect(ungated.worstDelay(from: 1) > 2)
        // With it, the transient right after the collapse stays within a 400 ms bottleneck queue,
        // and once the rate is measured a message spends at most about half the latency in it;
        // the backlog waits on the sender's side instead.
        #expect(gated.worstDelay(from: 1) < 0.4, "\(gated.worstDelay(from: 1)) s")
        #expect(gated.worstDelay(from: 1.5) <= 0.12 * 0.5 + 0.02, "\(gated.worstDelay(from: 1.5)) s")
        #expect(gated.mostWaiting > 100_000)
    }

    @Test func aFastLinkTakesKeyFramesWithoutHolding() {
        // A 40 kB keyframe a second on a 2.5 Mb/s stream over 50 Mbit/s: the gate lets it go at
        // the link's pace (≈ 7 ms); nothing waits long on the sender's side.
        let outcome = simulate(seconds: 3, streamRate: 2_500_000, keyFrameBytes: 40_000) { _ in 50_000_000 }
        #expect(outcome.worstDelay(from: 0) < 0.02, "\(outcome.worstDelay(from: 0)) s")
        #expect(outcome.mostWaiting < 42_000)
        let delivered = outcome.delays.count * 1316
        #expect(Double(delivered) > (2_500_000 / 8 * 3 + 3 * 40_000) * 0.95)
    }

    @Test func aLongRoundTripStillCarriesTheStream() {
        // 100 ms round trip, the default 120 ms latency, 2.5 Mb/s over 10 Mbit/s: a round trip of
        // data is always unacknowledged, and the gate must not take that for a backlog.
        let outcome = simulate(seconds: 4, streamRate: 2_500_000, keyFrameBytes: 20_000, roundTrip: 0.1) { _ in 10_000_000 }
        #expect(outcome.mostWaiting < 25_000, "\(outcome.mostWaiting) bytes waited")
        #expect(outcome.worstDelay(from: 0.5) < 0.1 / 2 + 0.03, "\(outcome.worstDelay(from: 0.5)) s")
    }

    @Test func aFastLinkWithATightLatencyIsNotHeldToTheStreamsAverage() {
        // latency=20 ms on a loopback-like link: acknowledgements every 10 ms, a 60 kB keyframe a
        // second on 2.5 Mb/s. What the peer acknowledged is only what the stream offered; held to
        // that rate, each keyframe would wait many acknowledgement periods and the sender's queue
        // would grow without end (a second's backlog in bench/stream_latency.sh).
        let outcome = simulate(
            seconds: 3, streamRate: 2_500_000, keyFrameBytes: 60_000, latency: 0.02,
            acknowledgementInterval: 0.01
        ) { _ in 1_000_000_000 }
        #expect(outcome.longestWait < 0.005, "a keyframe waited \(outcome.longestWait) s to be handed over")
        #expect(outcome.worstDelay(from: 0) < 0.005, "\(outcome.worstDelay(from: 0)) s")
        let delivered = outcome.delays.count * 1316
        #expect(Double(delivered) > (2_500_000 / 8 * 3 + 3 * 60_000) * 0.95)
    }

    @Test func aLinkThatFellBehindOnAKeyframeJudgesTheNextByItsRate() {
        // 1.5 Mb/s and a 60 kB keyframe a second over 3 Mbit/s, the default latency: a keyframe
        // takes 160 ms on this link. The first one finds the link unknown and goes at once; the
        // rate it shows is remembered, and the next ones wait on the sender's side instead of
        // queueing past half the latency in the transport.
        let link = { (_: Double) -> Double in 3_000_000 }
        let outcome = simulate(
            seconds: 4, streamRate: 1_500_000, keyFrameBytes: 60_000, acknowledgementInterval: 0.01,
            linkRate: link)
        #expect(outcome.worstDelay(from: 0, to: 0.5) > 0.12, "the first keyframe: \(outcome.worstDelay(from: 0, to: 0.5)) s")
        #expect(outcome.worstDelay(from: 0.9) < 0.12 * 0.5 + 0.03, "\(outcome.worstDelay(from: 0.9)) s")
        // Without the memory every keyframe would queue in the transport as the first did.
        var forgetful = SRTSendGate()
        forgetful.rateMemory = 0
        let without = simulate(
            seconds: 4, streamRate: 1_500_000, keyFrameBytes: 60_000, acknowledgementInterval: 0.01,
            gate: forgetful, linkRate: link)
        #expect(without.worstDelay(from: 0.9) > 0.12, "\(without.worstDelay(from: 0.9)) s")
    }

    @Test func withoutTimestampBasedDeliveryNothingIsHeld() {
        var gate = SRTSendGate()
        gate.hand(1_000_000, at: 0)
        let withoutLatency = gate.allows(at: 5, bufferedBytes: 1_000_000, latency: 0, roundTrip: 0)
        let withLatency = gate.allows(at: 5, bufferedBytes: 1_000_000, latency: 0.12, roundTrip: 0)
        #expect(withoutLatency)
        #expect(!withLatency)
    }
}
#endif
