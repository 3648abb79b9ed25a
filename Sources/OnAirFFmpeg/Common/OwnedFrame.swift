#if os(Linux)
import CFFmpeg
import OnAirCore

/// Owns one `AVFrame` and frees it in `deinit`.
final class OwnedFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(EncoderError) {
        guard let pointer = av_frame_alloc() else {
            throw .ffmpeg(FFmpegError(code: onair_averror(12), operation: "av_frame_alloc"))
        }
        self.pointer = pointer
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// Plane base pointers (`data[0..<8]`).
    var planes: [UnsafeMutablePointer<UInt8>?] {
        withUnsafeBytes(of: pointer.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
    }

    /// Plane strides (`linesize[0..<8]`).
    var lineSizes: [Int32] {
        withUnsafeBytes(of: pointer.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
    }
}

/// Calls `body` with the base pointers of every buffer, valid for the duration of the call (no copy).
func withBasePointers<R>(
    _ buffers: ArraySlice<MediaBuffer>, _ collected: [UnsafePointer<UInt8>?] = [],
    _ body: ([UnsafePointer<UInt8>?]) -> R
) -> R {
    guard let first = buffers.first else { return body(collected) }
    return first.withUnsafeBytes { bytes in
        withBasePointers(buffers.dropFirst(), collected + [bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)], body)
    }
}

/// Calls `body` with the first-byte pointers of every plane, valid for the duration of the call (no copy).
func withBasePointers<R>(
    _ planes: ArraySlice<VideoFrame.Plane>, _ collected: [UnsafePointer<UInt8>?] = [],
    _ body: ([UnsafePointer<UInt8>?]) -> R
) -> R {
    guard let first = planes.first else { return body(collected) }
    return first.withUnsafeBytes { bytes in
        withBasePointers(planes.dropFirst(), collected + [bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)], body)
    }
}
#endif
