#if os(Linux)
/// Tells the start-up backlog of a live input from live frames, so latency measures the live
/// stream rather than the first packets the demuxer held while probing.
///
/// Opening a live input reads a fraction of a second of packets to learn the streams; those come
/// out of the demuxer at once, so their frames are decoded late by up to the probe's length. When
/// the demuxer tells where each packet lay in the input, the backlog is exactly the frames whose
/// packets were read during the probe. Otherwise it is over at the first video frame that arrives
/// at least half a frame duration after the previous one — the player had to wait for the
/// network — or, should it never have to wait (a receiver slower than real time),
/// `giveUpSeconds` after the first frame: from then on a growing latency is the receiver's own.
package struct BacklogDetector: Sendable {
    /// The nominal frame duration in seconds.
    public var frameDuration: Double
    /// Seconds after the first frame at which the backlog counts as drained regardless.
    public var giveUpSeconds = 2.0
    /// Frames seen while the backlog lasted.
    public private(set) var backlogFrames = 0
    /// Whether the backlog is behind us.
    public private(set) var isDrained = false
    private var firstWall: Double?
    private var lastWall: Double?

    /// A detector for video at `frameDuration` seconds per frame.
    public init(frameDuration: Double) { self.frameDuration = frameDuration }

    /// Records a video frame decoded at wall-clock `wall` seconds, whose packet was or was not
    /// read while probing (nil: unknown); true when it is a live frame.
    public mutating func frame(wall: Double, readWhileProbing: Bool? = nil) -> Bool {
        defer { lastWall = wall }
        if isDrained { return true }
        if firstWall == nil { firstWall = wall }
        if let readWhileProbing {
            isDrained = !readWhileProbing
        } else {
            if let lastWall, wall - lastWall >= frameDuration / 2 { isDrained = true }
            if let firstWall, wall - firstWall >= giveUpSeconds { isDrained = true }
        }
        if !isDrained { backlogFrames += 1 }
        return isDrained
    }
}
#endif
