/// The result of scanning bytes for ADTS frames: the frames found and what was passed over.
public struct ADTSStream: Sendable, Equatable {
    /// The frames, in stream order.
    public let frames: [ADTSFrame]
    /// Bytes that belong to no accepted frame (garbage, damaged or truncated frames).
    public let skippedBytes: Int
    /// Frames whose header was found where a frame was due (at the start, or right after
    /// another frame) but which could not be accepted: truncated, or not followed by the next
    /// frame's sync word.
    public let damagedFrames: Int

    /// Creates a scan result.
    public init(frames: [ADTSFrame], skippedBytes: Int, damagedFrames: Int) {
        self.frames = frames
        self.skippedBytes = skippedBytes
        self.damagedFrames = damagedFrames
    }
}
