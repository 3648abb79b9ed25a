/// Hands out `VideoFrame`s of one size and pixel format whose planes live in one block of a
/// `BufferPool`; the block returns to the pool when the last holder of the frame lets go.
///
/// Sources and scalers take a frame, write every pixel, then pass the frame on. Thread-safe.
package final class VideoFramePool: Sendable {
    /// The layout of every frame.
    public let layout: VideoFrameLayout
    /// The pool the frames' blocks come from (its counts show how many frames are alive).
    public let pool: BufferPool

    /// Creates a pool of `width`×`height` `pixelFormat` frames keeping up to `maximumIdle` spare.
    public init(width: Int, height: Int, pixelFormat: VideoFrame.PixelFormat, maximumIdle: Int = 16) {
        layout = VideoFrameLayout(width: width, height: height, pixelFormat: pixelFormat)
        pool = BufferPool(bufferSize: layout.byteCount, maximumIdle: maximumIdle)
    }

    /// A frame stamped `pts` whose pixels are left over from an earlier frame: write them all.
    public func makeFrame(pts: MediaTime) -> VideoFrame {
        VideoFrame(layout: layout, buffer: pool.take(), pts: pts)
    }

    /// Whether frames from this pool have this size and format.
    public func matches(width: Int, height: Int, pixelFormat: VideoFrame.PixelFormat) -> Bool {
        layout.width == width && layout.height == height && layout.pixelFormat == pixelFormat
    }
}
