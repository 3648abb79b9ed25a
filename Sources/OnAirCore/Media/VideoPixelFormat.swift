extension VideoFrame {
    /// The memory layout of a raw video frame's pixels.
    public enum PixelFormat: String, Sendable, Codable, Hashable, CaseIterable {
        /// Planar Y, U, V; chroma halved in both directions (4:2:0).
        case yuv420p
        /// Y plane plus one interleaved UV plane; chroma halved in both directions (4:2:0).
        case nv12
        /// Planar Y, U, V; chroma halved horizontally (4:2:2).
        case yuv422p
        /// Planar Y, U, V at full resolution (4:4:4).
        case yuv444p
        /// Packed 8-bit B, G, R, A.
        case bgra
        /// Packed 8-bit R, G, B, A.
        case rgba
        /// Packed 8-bit R, G, B.
        case rgb24

        /// How many planes a frame of this format has.
        public var planeCount: Int {
            switch self {
            case .yuv420p, .yuv422p, .yuv444p: return 3
            case .nv12: return 2
            case .bgra, .rgba, .rgb24: return 1
            }
        }

        /// The smallest row length in bytes of `plane` for a frame `width` pixels wide.
        public func minimumBytesPerRow(plane: Int, width: Int) -> Int {
            let half = (width + 1) / 2
            switch self {
            case .yuv420p, .yuv422p: return plane == 0 ? width : half
            case .yuv444p: return width
            case .nv12: return plane == 0 ? width : half * 2
            case .bgra, .rgba: return width * 4
            case .rgb24: return width * 3
            }
        }

        /// The number of rows of `plane` for a frame `height` pixels high.
        public func rows(plane: Int, height: Int) -> Int {
            switch self {
            case .yuv420p, .nv12: return plane == 0 ? height : (height + 1) / 2
            default: return height
            }
        }
    }
}

/// `VideoFrame.PixelFormat` by its short name, inside the package.
package typealias VideoPixelFormat = VideoFrame.PixelFormat
