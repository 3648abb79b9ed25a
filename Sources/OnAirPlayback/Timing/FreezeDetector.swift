#if os(Linux)
/// Counts freezes in received video: a gap between consecutive presentation times longer than
/// `gapFactor` frame durations, or a wall-clock stall with no new frame for longer than
/// `stallSeconds` while the input should still be delivering.
///
/// One interruption counts once, even when it shows both as a stall and as a timestamp gap.
package struct FreezeDetector: Sendable {
    /// Presentation gaps longer than this many frame durations are freezes.
    public var gapFactor = 3.0
    /// Wall-clock seconds without a new frame that count as a freeze.
    public var stallSeconds = 0.5
    /// The nominal frame duration in seconds.
    public var frameDuration: Double
    /// Freezes counted so far.
    public private(set) var freezes = 0
    private var lastPTS: Double?
    private var lastWall: Double?
    private var stallCounted = false

    /// A detector for video at `frameRate` frames per second (30 when unknown or invalid).
    public init(frameRate: Double?) {
        let rate = frameRate.flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil } ?? 30
        frameDuration = 1 / rate
    }

    /// Records a frame presented at `pts` seconds and decoded at wall-clock `wall` seconds.
    public mutating func frame(pts: Double, wall: Double) {
        defer {
            lastPTS = pts
            lastWall = wall
            stallCounted = false
        }
        guard let lastPTS, let lastWall else { return }
        if stallCounted { return }  // this interruption was already counted as a stall
        if pts - lastPTS > gapFactor * frameDuration || wall - lastWall > stallSeconds { freezes += 1 }
    }

    /// Checks for a stall at wall-clock `wall` seconds; counts it (once) and returns true when the
    /// last frame is older than `stallSeconds`.
    @discardableResult
    public mutating func checkStall(wall: Double) -> Bool {
        guard let lastWall, wall - lastWall > stallSeconds else { return false }
        if !stallCounted {
            stallCounted = true
            freezes += 1
        }
        return true
    }
}
#endif
