#if canImport(OnAirGStreamer) && canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
@testable import OnAir
import Testing
@testable import OnAirLive

/// The policy of one WebRTC viewer's queue (`WebRTCViewerGate`) and the coalescing of viewers'
/// keyframe feedback (`KeyFrameCoalescer.feedback(at:)`), as pure values.
struct WebRTCViewerGateTests {
    @Test func aViewerStartsAtAKeyFrameAfterItsHandshake() {
        var gate = WebRTCViewerGate(limit: 1000)
        #expect(gate.admit(bytes: 100, keyFrame: true, queued: 0, backlog: 0) == .refuse, "before DTLS")
        gate.connected()
        #expect(gate.admit(bytes: 100, keyFrame: false, queued: 0, backlog: 0) == .refuse, "not a keyframe")
        #expect(gate.admit(bytes: 100, keyFrame: true, queued: 0, backlog: 0) == .take)
        #expect(gate.state == .live)
        #expect(gate.admit(bytes: 100, keyFrame: false, queued: 100, backlog: 0) == .take)
    }

    @Test func aPipelineThatFallsBehindMakesItsViewerSkipNotGrow() {
        var gate = WebRTCViewerGate(limit: 1000)
        gate.connected()
        #expect(gate.admit(bytes: 300, keyFrame: true, queued: 0, backlog: 0) == .take)
        // The queue is empty (handed on), but the pipeline's appsrcs hold 800 bytes: 300 more is over.
        #expect(gate.admit(bytes: 300, keyFrame: false, queued: 0, backlog: 800) == .skip)
        #expect(gate.skips == 1 && gate.state == .waitingForKeyFrame)
        // A keyframe that does not fit beside the backlog is left out too; one that fits restarts it.
        #expect(gate.admit(bytes: 300, keyFrame: true, queued: 0, backlog: 800) == .refuse)
        #expect(gate.admit(bytes: 300, keyFrame: true, queued: 0, backlog: 100) == .take)
        // Over the limit on a keyframe that fits alone: the queue goes, the keyframe stays.
        #expect(gate.admit(bytes: 300, keyFrame: true, queued: 900, backlog: 0) == .restart)
        #expect(gate.skips == 2 && gate.state == .live)
    }

    @Test func feedbackRightAfterAKeyFrameIsAnsweredByIt() {
        var coalescer = KeyFrameCoalescer(minimumInterval: 1, answerWindow: 0.3)
        // A burst of five PLIs 20 ms apart; the IDR forced for the first goes out 40 ms later.
        var answers = [coalescer.feedback(at: 10.00), coalescer.feedback(at: 10.02)]
        coalescer.keyFrameSent(at: 10.04)
        answers += [coalescer.feedback(at: 10.06), coalescer.feedback(at: 10.08), coalescer.feedback(at: 10.10)]
        answers += [coalescer.due(at: 11.1)]  // nothing remembered: no second IDR a second later
        #expect(answers == [true, false, false, false, false, false])
        #expect(coalescer.forced == 1 && coalescer.answeredInFlight == 3)
        // A viewer joining right after that keyframe missed it: its request is served.
        #expect(coalescer.request(at: 10.12) == false)
        #expect(coalescer.due(at: 11.0) == true)
        // Feedback well after the last keyframe is a new loss.
        coalescer.keyFrameSent(at: 11.02)
        #expect(coalescer.feedback(at: 12.5) == true)
    }
}
#endif
