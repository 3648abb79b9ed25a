/// Turns keyframe requests from many WebRTC viewers (PLI, FIR, a viewer joining) into forced IDRs
/// of the one shared encoder: at most one per `minimumInterval`; a request inside the interval is
/// remembered and served when it ends, so no viewer waits longer than the interval.
///
/// A pure value: the caller supplies the time and does the forcing.
package struct KeyFrameCoalescer: Sendable {
    /// Seconds between forced keyframes, at least.
    public var minimumInterval: Double
    private var lastForced: Double?
    private var pending = false
    /// Requests received, and keyframes forced for them, so far.
    public private(set) var requests = 0, forced = 0

    /// A coalescer allowing one forced keyframe per `minimumInterval` seconds.
    public init(minimumInterval: Double = 1) {
        self.minimumInterval = minimumInterval
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

    /// Called regularly: true when a remembered request is due now.
    public mutating func due(at now: Double) -> Bool {
        guard pending, let lastForced, now - lastForced >= minimumInterval else { return false }
        return force(at: now)
    }

    /// A keyframe went out (forced or at a GOP boundary): it serves every request that waits.
    public mutating func keyFrameSent() {
        pending = false
    }

    private mutating func force(at now: Double) -> Bool {
        lastForced = now
        pending = false
        forced += 1
        return true
    }
}
