#if os(Linux)
import OnAirCore
import OnAirLive

/// Finds white flashes in a sequence of decoded frames.
///
/// A frame's whiteness is the share of its luma samples (outside the frame codes) at or above
/// `whiteLevel`; a flash starts at a frame whose whiteness reaches `threshold` when the frame
/// before it (if any) did not. The synthetic background never exceeds luma 190.
package struct FlashDetector: Sendable {
    /// The whiteness (0…1) a frame must reach to count as white.
    public var threshold: Double
    /// The luma value at or above which a sample counts as white.
    public static let whiteLevel: UInt8 = 200

    /// Creates a detector that counts frames at least `threshold` white as flashes.
    public init(threshold: Double = 0.6) {
        self.threshold = threshold
    }

    /// The positions in `whiteness` (one value per frame, in presentation order) where flashes start.
    public func flashStarts(in whiteness: [Double]) -> [Int] {
        var starts = [Int]()
        var previousWhite = false
        for (position, value) in whiteness.enumerated() {
            let white = value >= threshold
            if white, !previousWhite { starts.append(position) }
            previousWhite = white
        }
        return starts
    }

    /// The presentation times (from each frame's `pts`) at which flashes start in `frames`.
    public func flashTimes(in frames: [VideoFrame]) -> [Double] {
        let starts = flashStarts(in: frames.map { Self.whiteness(of: $0) ?? 0 })
        return starts.map { frames[$0].pts.seconds }
    }

    /// The share (0…1) of sampled luma values at or above `whiteLevel`, skipping the frame code;
    /// nil when the frame has no luma plane or malformed planes.
    public static func whiteness(of frame: VideoFrame) -> Double? {
        guard let plane = FrameCodeReader.lumaPlane(of: frame) else { return nil }
        let code = FrameCodeLayout.codeArea(width: frame.width, height: frame.height)
        let step = max(1, min(frame.width, frame.height) / 90)
        let stride = plane.bytesPerRow
        var white = 0, total = 0
        plane.bytes.withUnsafeBufferPointer { luma in
            for y in Swift.stride(from: step / 2, to: frame.height, by: step) {
                let insideCodeRows = code.map { y >= $0.y && y < $0.y + $0.height } ?? false
                for x in Swift.stride(from: step / 2, to: frame.width, by: step) {
                    if insideCodeRows, let code, x >= code.x, x < code.x + code.width { continue }
                    total += 1
                    if luma[y * stride + x] >= whiteLevel { white += 1 }
                }
            }
        }
        return total == 0 ? nil : Double(white) / Double(total)
    }
}
#endif
