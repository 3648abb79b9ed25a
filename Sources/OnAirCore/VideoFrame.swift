/// One uncompressed video picture: its size, pixel format, pixel planes and capture time.
public struct VideoFrame: Sendable {
    /// One plane of pixel data: rows of `bytesPerRow` bytes each (the stride).
    public struct Plane: Sendable, Hashable {
        /// The plane's bytes, row after row.
        public var bytes: [UInt8]
        /// The distance in bytes from one row to the next (at least the row's pixel bytes).
        public var bytesPerRow: Int

        /// Creates a plane from its bytes and stride.
        public init(bytes: [UInt8], bytesPerRow: Int) {
            self.bytes = bytes
            self.bytesPerRow = bytesPerRow
        }
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// How the pixels are laid out in `planes`.
    public var pixelFormat: VideoPixelFormat
    /// The pixel planes, `pixelFormat.planeCount` of them.
    public var planes: [Plane]
    /// The presentation time, from the capture clock.
    public var pts: MediaTime

    /// Creates a frame from existing planes.
    public init(width: Int, height: Int, pixelFormat: VideoPixelFormat, planes: [Plane], pts: MediaTime) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.pts = pts
    }

    /// Creates a frame with tightly packed planes filled with zero bytes.
    public init(width: Int, height: Int, pixelFormat: VideoPixelFormat, pts: MediaTime) {
        let w = max(width, 0), h = max(height, 0)
        let planes = (0..<pixelFormat.planeCount).map { index -> Plane in
            let stride = pixelFormat.minimumBytesPerRow(plane: index, width: w)
            return Plane(bytes: [UInt8](repeating: 0, count: stride * pixelFormat.rows(plane: index, height: h)),
                         bytesPerRow: stride)
        }
        self.init(width: width, height: height, pixelFormat: pixelFormat, planes: planes, pts: pts)
    }

    /// Why the planes cannot hold a `width`×`height` picture of `pixelFormat`, or nil when they can.
    ///
    /// Encoders call this before handing the bytes to native code so that a short plane is an error,
    /// never an over-read.
    public func layoutProblem() -> String? {
        guard width > 0, height > 0 else { return "width and height must be positive, got \(width)×\(height)" }
        guard planes.count == pixelFormat.planeCount else {
            return "planes: \(pixelFormat) needs \(pixelFormat.planeCount) planes, got \(planes.count)"
        }
        for (index, plane) in planes.enumerated() {
            let minimum = pixelFormat.minimumBytesPerRow(plane: index, width: width)
            if plane.bytesPerRow < minimum {
                return "planes[\(index)].bytesPerRow must be ≥ \(minimum), got \(plane.bytesPerRow)"
            }
            let rows = pixelFormat.rows(plane: index, height: height)
            let needed = plane.bytesPerRow * (rows - 1) + minimum
            if plane.bytes.count < needed {
                return "planes[\(index)].bytes must hold ≥ \(needed) bytes, got \(plane.bytes.count)"
            }
        }
        return nil
    }
}
