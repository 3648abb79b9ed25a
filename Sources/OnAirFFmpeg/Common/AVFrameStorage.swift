#if os(Linux)
import CFFmpeg
import OnAirCore

/// Keeps one reference to an `AVFrame`'s buffers (an `av_frame_clone`) alive while `MediaBuffer`s
/// point into it, and drops it in `deinit`, when the last of them is released: a decoded or
/// captured picture or sample run travels the pipeline in the buffers libavcodec made it in.
final class AVFrameStorage {
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// A new reference to `source`'s buffers, or nil when `source` is not reference-counted.
    init?(referencing source: UnsafeMutablePointer<AVFrame>) {
        guard source.pointee.buf.0 != nil, let clone = av_frame_clone(source) else { return nil }
        frame = clone
    }

    deinit { av_frame_free(&frame) }

    /// Wraps a decoded video frame without copying: each plane a `MediaBuffer` over the frame's
    /// own memory. Nil when the frame is not reference-counted or has a negative stride.
    static func videoFrame(
        wrapping source: UnsafeMutablePointer<AVFrame>, pixelFormat: VideoPixelFormat,
        pts: MediaTime
    ) -> VideoFrame? {
        let width = Int(source.pointee.width), height = Int(source.pointee.height)
        guard let storage = AVFrameStorage(referencing: source), let frame = storage.frame else { return nil }
        var planes: [VideoFrame.Plane] = []
        let ok = withUnsafeBytes(of: frame.pointee.data) { data -> Bool in
            withUnsafeBytes(of: frame.pointee.linesize) { lines -> Bool in
                let pointers = data.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                let strides = lines.bindMemory(to: Int32.self)
                for index in 0..<pixelFormat.planeCount {
                    guard let base = pointers[index], strides[index] > 0 else { return false }
                    let stride = Int(strides[index])
                    let byteCount = stride * pixelFormat.rows(plane: index, height: height)
                    let buffer = MediaBuffer(
                        pointer: UnsafeMutableRawPointer(base), count: byteCount, owner: storage,
                        padding: Int(AV_INPUT_BUFFER_PADDING_SIZE) / 4)
                    planes.append(VideoFrame.Plane(buffer: buffer, byteCount: byteCount, bytesPerRow: stride))
                }
                return true
            }
        }
        guard ok else { return nil }
        return VideoFrame(width: width, height: height, pixelFormat: pixelFormat, planes: planes, pts: pts)
    }

    /// Wraps `bytesPerPlane` bytes of each of a decoded audio frame's `planeCount` planes without copying.
    static func sampleBuffers(
        wrapping source: UnsafeMutablePointer<AVFrame>, planeCount: Int,
        bytesPerPlane: Int
    ) -> [MediaBuffer]? {
        guard let storage = AVFrameStorage(referencing: source), let frame = storage.frame,
            let planes = frame.pointee.extended_data
        else { return nil }
        var buffers: [MediaBuffer] = []
        for index in 0..<planeCount {
            guard let base = planes[index] else { return nil }
            buffers.append(MediaBuffer(pointer: UnsafeMutableRawPointer(base), count: bytesPerPlane, owner: storage))
        }
        return buffers
    }
}

/// Keeps a moved-out `AVPacket` (the encoder's own payload buffer) alive while a `MediaBuffer`
/// points into it; freed when the last sink releases the packet.
final class AVPacketStorage {
    private var packet: UnsafeMutablePointer<AVPacket>?

    private init(packet: UnsafeMutablePointer<AVPacket>) { self.packet = packet }

    deinit { av_packet_free(&packet) }

    /// Takes `source`'s payload (leaving `source` blank) as an immutable `MediaBuffer`, without
    /// copying; nil (and `source` untouched) when the packet is not reference-counted.
    static func payload(takingFrom source: UnsafeMutablePointer<AVPacket>) -> MediaBuffer? {
        guard source.pointee.buf != nil, let data = source.pointee.data, source.pointee.size > 0,
            let moved = av_packet_alloc()
        else { return nil }
        let count = Int(source.pointee.size)
        av_packet_move_ref(moved, source)
        return MediaBuffer(
            pointer: UnsafeMutableRawPointer(data), count: count, owner: AVPacketStorage(packet: moved),
            padding: Int(AV_INPUT_BUFFER_PADDING_SIZE))
    }
}

/// Lends `MediaBuffer`s to libav* without a copy: an `AVBufferRef` over the bytes that keeps the
/// buffer retained until libav* unreferences it.
enum MediaBufferReference {
    /// A read-only `AVBufferRef` over `length` bytes at `offset` in `buffer` (which must have a
    /// `baseAddress`), or nil when it has none or allocation failed.
    static func make(_ buffer: MediaBuffer, offset: Int = 0, length: Int? = nil) -> UnsafeMutablePointer<AVBufferRef>? {
        guard let base = buffer.baseAddress else { return nil }
        let retained = Unmanaged.passRetained(buffer).toOpaque()
        let size = length ?? buffer.count - offset
        guard
            let reference = av_buffer_create(
                base.assumingMemoryBound(to: UInt8.self) + offset, size,
                { opaque, _ in
                    if let opaque { Unmanaged<MediaBuffer>.fromOpaque(opaque).release() }
                }, retained, Int32(AV_BUFFER_FLAG_READONLY))
        else {
            Unmanaged<MediaBuffer>.fromOpaque(retained).release()
            return nil
        }
        return reference
    }
}
#endif
