import OnAirCore

/// How a `VideoFrame`'s pixels go into a CoreVideo pixel buffer the encoder takes, and back:
/// 4:2:0 frames (planar or NV12) as bi-planar NV12 (`kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`),
/// BGRA as `kCVPixelFormatType_32BGRA`. Row by row, honouring both strides. Portable: tested on
/// Linux with plain memory; the adapter passes the pixel buffer's plane addresses.
public enum PixelBufferFill {
    /// The pixel-buffer layouts the Apple backend uses.
    public enum Layout: Sendable, Equatable {
        /// Bi-planar 4:2:0: a luma plane and an interleaved Cb/Cr plane.
        case nv12
        /// One plane of packed B, G, R, A.
        case bgra

        /// Planes in a buffer of this layout.
        public var planeCount: Int { self == .nv12 ? 2 : 1 }
    }

    /// The layout frames of `format` are encoded from; throws for formats the backend does not take.
    public static func layout(for format: VideoFrame.PixelFormat) throws(AppleBackendError) -> Layout {
        switch format {
        case .yuv420p, .nv12: return .nv12
        case .bgra: return .bgra
        default:
            throw AppleBackendError(
                operation: "pixel buffer", detail: "\(format) frames are not taken (yuv420p, nv12 or bgra)")
        }
    }

    /// Copies plane `plane` of the layout from `frame` into `destination` (`bytesPerRow` apart,
    /// at least `rows × bytesPerRow` bytes). Throws when the frame's planes are too small.
    public static func copy(
        _ frame: VideoFrame, plane: Int, into destination: UnsafeMutableRawPointer, bytesPerRow: Int
    ) throws(AppleBackendError) {
        if let problem = frame.layoutProblem() { throw AppleBackendError(operation: "pixel buffer", detail: problem) }
        let layout = try layout(for: frame.pixelFormat)
        let width = frame.width, height = frame.height
        switch (layout, frame.pixelFormat, plane) {
        case (.nv12, _, 0), (.nv12, .nv12, 1), (.bgra, _, 0):
            let rows = frame.pixelFormat.rows(plane: plane, height: height)
            let rowBytes = min(frame.pixelFormat.minimumBytesPerRow(plane: plane, width: width), bytesPerRow)
            let source = frame.planes[plane]
            source.withUnsafeBytes { bytes in
                for row in 0..<rows {
                    (destination + row * bytesPerRow).copyMemory(
                        from: bytes.baseAddress! + row * source.bytesPerRow, byteCount: rowBytes)
                }
            }
        case (.nv12, .yuv420p, 1):
            let rows = (height + 1) / 2, columns = min((width + 1) / 2, bytesPerRow / 2)
            let u = frame.planes[1], v = frame.planes[2]
            u.withUnsafeBytes { uBytes in
                v.withUnsafeBytes { vBytes in
                    for row in 0..<rows {
                        let line = (destination + row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                        for column in 0..<columns {
                            line[2 * column] = uBytes[row * u.bytesPerRow + column]
                            line[2 * column + 1] = vBytes[row * v.bytesPerRow + column]
                        }
                    }
                }
            }
        default:
            throw AppleBackendError(operation: "pixel buffer", detail: "no plane \(plane) in \(layout)")
        }
    }

    /// A frame over NV12 planes read from a decoded pixel buffer (copied, so the buffer can go back).
    public static func nv12Frame(
        width: Int, height: Int, luma: UnsafeRawBufferPointer, lumaBytesPerRow: Int, chroma: UnsafeRawBufferPointer,
        chromaBytesPerRow: Int, pts: MediaTime
    ) -> VideoFrame {
        VideoFrame(
            width: width, height: height, pixelFormat: .nv12,
            planes: [
                VideoFrame.Plane(bytes: Array(luma.prefix(lumaBytesPerRow * height)), bytesPerRow: lumaBytesPerRow),
                VideoFrame.Plane(bytes: Array(chroma.prefix(chromaBytesPerRow * ((height + 1) / 2))), bytesPerRow: chromaBytesPerRow),
            ], pts: pts)
    }
}
