#if os(Linux)
import OnAirCore
import OnAirLive

/// What sync analysis needs from one decoded frame: where it plays, what its code says and how
/// white it is. Small enough to keep for every frame of a long file.
package struct FrameObservation: Sendable, Codable, Equatable {
    /// The frame's presentation time in the file, in seconds.
    public var presentationTime: Double
    /// The frame index from its code, or nil when the code was unreadable.
    public var frameIndex: Int?
    /// The capture time from its code in microseconds, or nil when the code was unreadable.
    public var captureMicroseconds: Int64?
    /// The share of white luma (see `FlashDetector.whiteness(of:)`); 0 when it cannot be measured.
    public var whiteness: Double

    /// Creates an observation from measured values.
    public init(presentationTime: Double, frameIndex: Int?, captureMicroseconds: Int64?, whiteness: Double) {
        self.presentationTime = presentationTime
        self.frameIndex = frameIndex
        self.captureMicroseconds = captureMicroseconds
        self.whiteness = whiteness
    }

    /// Measures `frame`: reads its code and whiteness; the presentation time is the frame's `pts`
    /// (a decoder sets it from the file) unless `presentationTime` is given.
    public init(frame: VideoFrame, presentationTime: Double? = nil) {
        let code = FrameCode.read(from: frame)
        self.init(
            presentationTime: presentationTime ?? frame.pts.seconds, frameIndex: code?.index,
            captureMicroseconds: code?.captureMicroseconds,
            whiteness: FlashDetector.whiteness(of: frame) ?? 0)
    }
}
#endif
