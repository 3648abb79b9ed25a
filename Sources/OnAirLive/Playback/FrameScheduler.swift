/// Decides which queued video frame is shown now, given the master clock: frames whose time has
/// come are taken, the last of them shown and the earlier ones dropped as late.
package enum FrameScheduler {
    /// The outcome for a queue of presentation times (seconds, oldest first).
    public struct Decision: Sendable, Equatable {
        /// Frames taken off the front of the queue.
        public var taken: Int
        /// Of those, the index of the one to show (the last taken), or nil when none is due.
        public var show: Int?
        /// Frames taken and not shown (late).
        public var dropped: Int { show == nil ? 0 : taken - 1 }
        /// Seconds until the next frame is due (nil when the queue is empty after taking).
        public var nextDue: Double?
    }

    /// How early (seconds) a frame may be shown: about one display refresh.
    public static let tolerance = 0.004

    /// The decision for frames at `times` with the clock at `clock`.
    public static func decide(times: [Double], clock: Double) -> Decision {
        var taken = 0
        while taken < times.count, times[taken] <= clock + tolerance { taken += 1 }
        let next = taken < times.count ? times[taken] - clock : nil
        return Decision(taken: taken, show: taken > 0 ? taken - 1 : nil, nextDue: next)
    }
}
