import OnAirCore

/// Turns frames at any timing into a constant frame rate by repeating or dropping frames.
///
/// Output slot k (at `start + k / rate`) shows the latest input frame whose time is at or before
/// the slot, so a stream that already has the target rate passes through unchanged.
struct FrameRateConverter {
    let rate: Double
    private var start: Double?
    private var slot = 0
    private var last: VideoFrame?

    init(rate: Double) { self.rate = rate }

    private func time(ofSlot k: Int) -> Double { (start ?? 0) + Double(k) / rate }

    /// Adds the next input frame and returns the frames due before it, restamped to their slots.
    mutating func push(_ frame: VideoFrame) -> [VideoFrame] {
        let t = frame.pts.seconds
        if start == nil { start = t }
        var out: [VideoFrame] = []
        // A tolerance of a hundredth of a frame keeps exact-rate input from jittering.
        while let last, time(ofSlot: slot) < t - 0.01 / rate {
            out.append(restamped(last))
        }
        last = frame
        return out
    }

    /// Emits the last frame for the slots up to `end` seconds (the input's end).
    mutating func finish(end: Double) -> [VideoFrame] {
        var out: [VideoFrame] = []
        guard let last else { return out }
        repeat { out.append(restamped(last)) } while time(ofSlot: slot) < end - 0.5 / rate
        self.last = nil
        return out
    }

    private mutating func restamped(_ frame: VideoFrame) -> VideoFrame {
        var copy = frame
        copy.pts = MediaTime(value: Int64((time(ofSlot: slot) * 1_000_000).rounded()), timescale: 1_000_000)
        slot += 1
        return copy
    }
}
