#if os(Linux)
import CFFmpeg
import OnAirCore

/// Scales yuv420p frames of any size to one fixed size (bicubic, with swscale), for outputs
/// that cannot change size mid-file: `onair play -o out.y4m` keeps the first picture's size
/// when the stream changes size, as ffmpeg's own conversion to a fixed output does.
///
/// Frames already at the size pass through untouched. Use from one thread at a time.
package final class PictureResizer {
    /// The size every frame comes out at.
    package let width: Int, height: Int
    private let pool: VideoFramePool
    private var scaler: OpaquePointer?
    private var source = (width: 0, height: 0)

    /// A resizer to `width`×`height`.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pool = VideoFramePool(width: width, height: height, pixelFormat: .yuv420p, maximumIdle: 4)
    }

    deinit { sws_freeContext(scaler) }

    /// `frame` at the resizer's size, with its timestamp; throws for frames that are not yuv420p.
    package func resize(_ frame: VideoFrame) throws(FFmpegError) -> VideoFrame {
        if frame.width == width, frame.height == height { return frame }
        guard frame.pixelFormat == .yuv420p, frame.planes.count == 3, frame.layoutProblem() == nil else {
            throw FFmpegError(code: onair_averror(22), operation: "resize a \(frame.pixelFormat) \(frame.width)x\(frame.height) frame")
        }
        if scaler == nil || source != (frame.width, frame.height) {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                Int32(frame.width), Int32(frame.height), AV_PIX_FMT_YUV420P, Int32(width), Int32(height),
                AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
            source = (frame.width, frame.height)
            guard scaler != nil else {
                throw FFmpegError(code: onair_averror(22), operation: "scale \(frame.width)x\(frame.height) to \(width)x\(height)")
            }
        }
        let result = pool.makeFrame(pts: frame.pts)
        let base = result.planes[0].buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var targets: [UnsafeMutablePointer<UInt8>?] = result.planes.map { base + $0.offset } + [nil]
        var targetStrides: [Int32] = result.planes.map { Int32($0.bytesPerRow) } + [0]
        let strides: [Int32] = frame.planes.map { Int32($0.bytesPerRow) } + [0]
        let rows = withBasePointers(frame.planes[...]) { sources -> Int32 in
            sws_scale(scaler, sources + [nil], strides, 0, Int32(frame.height), &targets, &targetStrides)
        }
        guard rows > 0 else { throw FFmpegError(code: rows < 0 ? rows : onair_averror(22), operation: "scale a frame") }
        return result
    }
}
#endif
