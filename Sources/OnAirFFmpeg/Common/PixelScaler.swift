#if os(Linux)
import CFFmpeg
import OnAirCore

/// Owns one `SwsContext` converting frames of one size and pixel format into another; freed in `deinit`.
final class PixelScaler {
    private let context: OpaquePointer
    let source: (width: Int, height: Int, format: AVPixelFormat)

    init(
        from source: (width: Int, height: Int, format: AVPixelFormat),
        to target: (width: Int, height: Int, format: AVPixelFormat)
    ) throws(EncoderError) {
        guard
            let context = sws_getContext(
                Int32(source.width), Int32(source.height), source.format,
                Int32(target.width), Int32(target.height), target.format,
                SWS_BILINEAR, nil, nil, nil)
        else {
            throw .ffmpeg(FFmpegError(code: onair_averror(22), operation: "sws_getContext"))
        }
        self.context = context
        self.source = source
    }

    deinit { sws_freeContext(context) }

    /// Converts `frame`'s planes into `destination`'s (already allocated, writable) buffers.
    func scale(_ frame: VideoFrame, into destination: OwnedFrame) throws(EncoderError) {
        let strides = frame.planes.map { Int32($0.bytesPerRow) } + [Int32](repeating: 0, count: 4 - frame.planes.count)
        let targetPlanes = destination.planes
        let targetStrides = destination.lineSizes
        let rows = withBasePointers(frame.planes[...]) { sources -> Int32 in
            let padded = sources + [UnsafePointer<UInt8>?](repeating: nil, count: 4 - sources.count)
            return sws_scale(context, padded, strides, 0, Int32(frame.height), targetPlanes, targetStrides)
        }
        try checkEncoder(rows, "sws_scale")
    }
}

extension VideoPixelFormat {
    /// The matching FFmpeg pixel format.
    var avPixelFormat: AVPixelFormat {
        switch self {
        case .yuv420p: return AV_PIX_FMT_YUV420P
        case .nv12: return AV_PIX_FMT_NV12
        case .yuv422p: return AV_PIX_FMT_YUV422P
        case .yuv444p: return AV_PIX_FMT_YUV444P
        case .bgra: return AV_PIX_FMT_BGRA
        case .rgba: return AV_PIX_FMT_RGBA
        case .rgb24: return AV_PIX_FMT_RGB24
        }
    }
}
#endif
