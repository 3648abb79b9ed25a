#if os(Linux)
import Foundation
import OnAirCore
import OnAirLive

/// Writes decoded yuv420p frames as a YUV4MPEG2 (`.y4m`) file that ffmpeg and players read.
/// Every write and the close are checked (`FileOutput`).
package final class Y4MWriter {
    /// Where the frames go.
    public let path: String
    private let file: FileOutput
    private let frameRate: Double
    private var size: (width: Int, height: Int)?
    private var framesWritten = 0

    /// Creates (or truncates) `path`; `frameRate` goes into the header.
    public init(path: String, frameRate: Double) throws(PlaybackError) {
        self.path = path
        file = try PlaybackError.writing(path) { try FileOutput(path: path) }
        self.frameRate = frameRate > 0 ? frameRate : 30
    }

    /// Appends one frame; the first frame fixes the picture size, later frames must match it.
    public func write(_ frame: VideoFrame) throws(PlaybackError) {
        guard frame.pixelFormat == .yuv420p, frame.planes.count == 3, frame.layoutProblem() == nil else {
            throw PlaybackError.writeFailed(path: path, reason: "y4m takes yuv420p frames")
        }
        var data = Data()
        file.startPacket(framesWritten)
        framesWritten += 1
        if let size {
            guard size == (frame.width, frame.height) else {
                throw PlaybackError.writeFailed(path: path, reason: "picture size changed to \(frame.width)x\(frame.height)")
            }
        } else {
            size = (frame.width, frame.height)
            let rate = Int((frameRate * 1000).rounded())
            data.append(Data("YUV4MPEG2 W\(frame.width) H\(frame.height) F\(rate):1000 Ip A1:1 C420jpeg\n".utf8))
        }
        data.append(Data("FRAME\n".utf8))
        let chromaWidth = (frame.width + 1) / 2, chromaHeight = (frame.height + 1) / 2
        for (index, plane) in frame.planes.enumerated() {
            let (width, height) = index == 0 ? (frame.width, frame.height) : (chromaWidth, chromaHeight)
            for row in 0..<height {
                data.append(contentsOf: plane.bytes[(row * plane.bytesPerRow)..<(row * plane.bytesPerRow + width)])
            }
        }
        try PlaybackError.writing(path) { try file.write(data) }
    }

    /// Flushes the file to disk and closes it.
    public func finish() throws(PlaybackError) {
        try PlaybackError.writing(path) { try file.close() }
    }
}
#endif
