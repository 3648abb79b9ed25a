import Foundation
import OnAirCore

/// Writes decoded yuv420p frames as a YUV4MPEG2 (`.y4m`) file that ffmpeg and players read.
public final class Y4MWriter {
    /// Where the frames go.
    public let path: String
    private let handle: FileHandle
    private let frameRate: Double
    private var size: (width: Int, height: Int)?

    /// Creates (or truncates) `path`; `frameRate` goes into the header.
    public init(path: String, frameRate: Double) throws(PlaybackError) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw PlaybackError.writeFailed(path: path, reason: "cannot create the file")
        }
        self.path = path
        self.handle = handle
        self.frameRate = frameRate > 0 ? frameRate : 30
    }

    /// Appends one frame; the first frame fixes the picture size, later frames must match it.
    public func write(_ frame: VideoFrame) throws(PlaybackError) {
        guard frame.pixelFormat == .yuv420p, frame.planes.count == 3, frame.layoutProblem() == nil else {
            throw PlaybackError.writeFailed(path: path, reason: "y4m takes yuv420p frames")
        }
        var data = Data()
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
        do { try handle.write(contentsOf: data) } catch {
            throw PlaybackError.writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// Closes the file.
    public func finish() throws(PlaybackError) {
        do { try handle.close() } catch { throw PlaybackError.writeFailed(path: path, reason: error.localizedDescription) }
    }
}
