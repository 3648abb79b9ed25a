/// Chooses which captured frames feed an encode at a lower frame rate (a sub stream at 5 fps from
/// a 30 fps capture): time is cut into slots of `1 / rate` seconds from the first frame, and the
/// first frame of each slot is taken. Slots follow media time, not frame counts, so the rate holds
/// whatever the capture's own rate or drops (at or below the rate, every frame is taken) and never
/// drifts. A frame a tenth of a slot early counts for its slot (capture jitter).
package struct FrameDecimator: Sendable {
    /// Frames per second taken at most.
    package let rate: Double
    private var origin: Double?
    private var lastSlot = 0
    private var lastTime = 0.0

    /// A decimator to `rate` frames per second (≤ 0 or not finite: every frame is taken).
    package init(rate: Double) {
        self.rate = rate.isFinite && rate > 0 ? rate : 0
    }

    /// Whether the frame stamped `time` (seconds) is taken. A time that goes back (a source
    /// replaced on another clock) starts the slots again from it.
    package mutating func take(_ time: Double) -> Bool {
        guard rate > 0 else { return true }
        guard let origin, time >= lastTime else {
            self.origin = time
            lastSlot = 0
            lastTime = time
            return true
        }
        lastTime = time
        let slot = Int(((time - origin) * rate + 0.1).rounded(.down))
        guard slot > lastSlot else { return false }
        lastSlot = slot
        return true
    }
}
