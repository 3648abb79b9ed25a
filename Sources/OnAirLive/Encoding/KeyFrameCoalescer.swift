/// Turns keyframe requests from many WebRTC viewers (PLI, FIR, a viewer joining) into forced IDRs
/// of the one shared encoder: at most one per `minimumInterval`; a request inside the interval is
/// remembered and served when it ends, so no viewer waits longer than the interval.
///
/// A viewer's feedback (PLI, FIR) that comes less than `answerWindow` after a keyframe went out is
/// taken as answered by it: the viewer asked before that keyframe reached it (a browser repeats
/// its PLI while it has none, and one burst of PLIs is then one IDR, not one now and one a second
/// later). A viewer joining or skipping always gets a keyframe after its request. A pure value:
/// the caller supplies the time and does the forcing.
package struct KeyFrameCoalescer: Sendable {
    /// Seconds between forced keyframes, at least.
    public var minimumInterval: Double
    /// Seconds after a keyframe went out during which feedback is taken as answered by it.
    public var answerWindow: Double
    private var lastForced: Double?
    private var lastSent: Double?
    private var pending = false
    /// Requests received, and keyframes forced for them, so far.
    public private(set) var requests = 0, forced = 0
    /// Feedback requests taken as answered by a keyframe just sent.
    public private(set) var answeredInFlight = 0

    /// A coalescer allowing one forced keyframe per `minimumInterval` seconds.
    public init(minimumInterval: Double = 1, answerWindow: Double = 0.3) {
        self.minimumInterval = minimumInterval
        self.answerWindow = answerWindow
    }

    /// A viewer asks for a keyframe at `now`: true when one should be forced at once.
    public mutating func request(at now: Double) -> Bool {
        requests += 1
        if let lastForced, now - lastForced < minimumInterval {
            pending = true
            return false
        }
        return force(at: now)
    }

    /// A viewer's PLI or FIR at `now`: as `request(at:)`, unless a keyframe went out within
    /// `answerWindow` before it (then false, and nothing is remembered).
    public mutating func feedback(at now: Double) -> Bool {
        if let lastSent, now >= lastSent, now - lastSent < answerWindow {
            requests += 1
            answeredInFlight += 1
            return false
        }
        return request(at: now)
    }

    /// Called regularly: true when a remembered request is due now.
    public mutating func due(at now: Double) -> Bool {
        guard pending, let lastForced, now - lastForced >= minimumInterval else { return false }
        return force(at: now)
    }

    /// A keyframe went out (forced or at a GOP boundary): it serves every request that waits.
    public mutating func keyFrameSent() {
        pending = false
    }

    /// A keyframe went out at `now`: it serves every request that waits, and feedback within
    /// `answerWindow` after it.
    public mutating func keyFrameSent(at now: Double) {
        pending = false
        lastSent = now
    }

    private mutating func force(at now: Double) -> Bool {
        lastForced = now
        pending = false
        forced += 1
        return true
    }
}
