/// Where each plane of a `width`×`height` picture of one pixel format lies in a single buffer:
/// tightly packed rows, each plane starting on a 64-byte boundary.
package struct VideoFrameLayout: Sendable, Hashable {
    /// One plane's place in the buffer.
    public struct PlaneLayout: Sendable, Hashable {
        /// Start of the plane in the buffer.
        public var offset: Int
        /// Bytes from one row to the next.
        public var bytesPerRow: Int
        /// The plane's length.
        public var byteCount: Int
    }

    /// Picture size in pixels.
    public let width: Int, height: Int
    /// The pixel format.
    public let pixelFormat: VideoFrame.PixelFormat
    /// The planes, in order.
    public let planes: [PlaneLayout]
    /// The buffer size that holds every plane.
    public let byteCount: Int

    /// Lays out a picture (negative sizes count as zero).
    public init(width: Int, height: Int, pixelFormat: VideoFrame.PixelFormat) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        let w = max(width, 0), h = max(height, 0)
        var offset = 0
        var planes: [PlaneLayout] = []
        for index in 0..<pixelFormat.planeCount {
            let stride = pixelFormat.minimumBytesPerRow(plane: index, width: w)
            let size = stride * pixelFormat.rows(plane: index, height: h)
            planes.append(PlaneLayout(offset: offset, bytesPerRow: stride, byteCount: size))
            offset += (size + 63) / 64 * 64
        }
        self.planes = planes
        byteCount = offset
    }
}
