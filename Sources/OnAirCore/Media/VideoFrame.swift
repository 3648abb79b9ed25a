/// One uncompressed video picture: its size, pixel format, pixel planes and capture time.
///
/// The pixels live in reference-counted `MediaBuffer`s: copying a `VideoFrame` (handing it to a
/// queue, an encoder, a second consumer) shares them, never copies them. A frame made by a source,
/// decoder or scaler stays in the buffer it was made in — a `BufferPool` block, or the native
/// buffer it was decoded or captured into — until the last holder (usually the encoder, once it
/// has taken the picture in) lets go; then the buffer returns to where it came from.
///
/// To build a frame from your own bytes use `Plane(bytes:bytesPerRow:)` (the array is shared, and
/// the encoder makes the one copy into its input); to lend a buffer you own without any copy use
/// `Plane(buffer:offset:byteCount:bytesPerRow:)` with `MediaBuffer(wrapping:count:release:)`.
public struct VideoFrame: Sendable {
    /// One plane of pixel data: rows of `bytesPerRow` bytes each (the stride), `byteCount` bytes
    /// from `offset` in `buffer`.
    public struct Plane: Sendable, Hashable {
        /// The buffer holding the plane (possibly with other planes of the same frame).
        package private(set) var buffer: MediaBuffer
        /// Where the plane starts in `buffer`.
        public private(set) var offset: Int
        /// The plane's length in bytes.
        public private(set) var byteCount: Int
        /// The distance in bytes from one row to the next (at least the row's pixel bytes).
        public var bytesPerRow: Int

        /// Creates a plane from its bytes and stride; the array is shared, not copied.
        public init(bytes: [UInt8], bytesPerRow: Int) {
            self.buffer = MediaBuffer(bytes: bytes)
            self.offset = 0
            self.byteCount = bytes.count
            self.bytesPerRow = bytesPerRow
        }

        /// Creates a plane over `byteCount` bytes at `offset` in `buffer`, without copying.
        /// The range is clamped to the buffer.
        package init(buffer: MediaBuffer, offset: Int = 0, byteCount: Int? = nil, bytesPerRow: Int) {
            let start = min(max(offset, 0), buffer.count)
            self.buffer = buffer
            self.offset = start
            self.byteCount = min(max(byteCount ?? buffer.count - start, 0), buffer.count - start)
            self.bytesPerRow = bytesPerRow
        }

        /// The plane's bytes, row after row. Reading copies them out of a native or pooled buffer
        /// (and is free for a plane made from an array); setting replaces the plane's storage.
        /// Hot paths use `withUnsafeBytes` instead.
        public var bytes: [UInt8] {
            get {
                if offset == 0, byteCount == buffer.count { return buffer.bytes }
                return withUnsafeBytes { Array($0) }
            }
            set {
                buffer = MediaBuffer(bytes: newValue)
                offset = 0
                byteCount = newValue.count
            }
            _modify {
                // A plane that is the whole of an array nobody else holds is changed in place.
                if offset == 0, byteCount == buffer.count, isKnownUniquelyReferenced(&buffer),
                    var array = buffer.extractArray()
                {
                    defer {
                        buffer.storeArray(array)
                        byteCount = array.count
                    }
                    yield &array
                } else {
                    var array = bytes
                    defer { bytes = array }
                    yield &array
                }
            }
        }

        /// Calls `body` with the plane's bytes, without copying them.
        public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try buffer.withUnsafeBytes { all in
                try body(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + byteCount)]))
            }
        }

        /// Calls `body` with the plane's bytes for writing: only for the stage that made the frame,
        /// before it hands the frame on.
        public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
            try buffer.withUnsafeMutableBytes { all in
                try body(UnsafeMutableRawBufferPointer(rebasing: all[offset..<(offset + byteCount)]))
            }
        }

        /// Planes are equal when their strides and bytes are.
        public static func == (lhs: Plane, rhs: Plane) -> Bool {
            guard lhs.bytesPerRow == rhs.bytesPerRow, lhs.byteCount == rhs.byteCount else { return false }
            if lhs.buffer === rhs.buffer, lhs.offset == rhs.offset { return true }
            return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in a.elementsEqual(b) } }
        }

        /// Hashes the stride and the bytes.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(bytesPerRow)
            withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// How the pixels are laid out in `planes`.
    public var pixelFormat: PixelFormat
    /// The pixel planes, `pixelFormat.planeCount` of them.
    public var planes: [Plane]
    /// The presentation time, from the capture clock.
    public var pts: MediaTime

    /// Creates a frame from existing planes.
    public init(width: Int, height: Int, pixelFormat: PixelFormat, planes: [Plane], pts: MediaTime) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.pts = pts
    }

    /// Creates a frame with tightly packed planes filled with zero bytes, one array per plane (so
    /// that `planes[i].bytes[j] = v` changes a pixel in place).
    public init(width: Int, height: Int, pixelFormat: PixelFormat, pts: MediaTime) {
        let layout = VideoFrameLayout(width: width, height: height, pixelFormat: pixelFormat)
        self.init(
            width: width, height: height, pixelFormat: pixelFormat,
            planes: layout.planes.map {
                Plane(bytes: [UInt8](repeating: 0, count: $0.byteCount), bytesPerRow: $0.bytesPerRow)
            }, pts: pts)
    }

    /// Creates a frame whose planes lie in `buffer` as `layout` places them (no copy).
    package init(layout: VideoFrameLayout, buffer: MediaBuffer, pts: MediaTime) {
        self.init(
            width: layout.width, height: layout.height, pixelFormat: layout.pixelFormat,
            planes: layout.planes.map {
                Plane(buffer: buffer, offset: $0.offset, byteCount: $0.byteCount, bytesPerRow: $0.bytesPerRow)
            }, pts: pts)
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
            if plane.byteCount < needed {
                return "planes[\(index)].bytes must hold ≥ \(needed) bytes, got \(plane.byteCount)"
            }
        }
        return nil
    }
}
