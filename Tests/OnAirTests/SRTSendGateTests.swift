@testable import OnAir
import Testing

/// `SRTSendGate` against a simulated bottleneck: a FIFO link of a given rate (what libsrt holds
/// is what the link has not delivered yet), fed by a stream of 1316-byte messages at a given rate
/// with a keyframe burst every second; whatever the gate holds waits in the sender's own queue.
@Suite struct SRTSendGateTests {
    struct Outcome {
        /// Per message handed over: seconds from hand-over to delivery, and the hand-over time.
        var delays: [(handed: Double, delay: Double)] = []
        /// The most bytes the sender's own queue held.
        var mostWaiting = 0

        func worstDelay(from start: Double, to end: Double = .infinity) -> Double {
            delays.filter { $0.handed >= start && $0.handed < end }.map(\.delay).max() ?? 0
        }
    }

    /// Runs `seconds` in 1 ms steps; `linkRate(t)` and `streamRate` in bits per second.
    func simulate(seconds: Double, streamRate: Double, keyFrameBytes: Int = 0, latency: Double = 0.12,
                  roundTrip: Double = 0, gated: Bool = true, linkRate: (Double) -> Double) -> Outcome {
        var gate = SRTSendGate()
        var outcome = Outcome()
        var waiting = 0.0                 // bytes in the sender's queue (encoded, not handed over)
        var inFlight: [(bytes: Int, handed: Double, left: Double)] = []
        var unacknowledged: [(bytes: Int, acknowledgedAt: Double)] = []  // sent, the acknowledgement on its way
        var credit = 0.0                  // bytes the link may still deliver this step
        let step = 0.001
        var t = 0.0
        var nextKeyFrame = 0.0
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
                unacknowledged.append((first.bytes, t + roundTrip))
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

    @Test func withoutTimestampBasedDeliveryNothingIsHeld() {
        var gate = SRTSendGate()
        gate.hand(1_000_000, at: 0)
        let withoutLatency = gate.allows(at: 5, bufferedBytes: 1_000_000, latency: 0, roundTrip: 0)
        let withLatency = gate.allows(at: 5, bufferedBytes: 1_000_000, latency: 0.12, roundTrip: 0)
        #expect(withoutLatency)
        #expect(!withLatency)
    }
}
