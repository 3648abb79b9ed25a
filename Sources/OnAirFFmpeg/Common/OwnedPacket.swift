#if os(Linux)
import CFFmpeg

/// Owns one `AVPacket` and frees it in `deinit`.
final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(EncoderError) {
        guard let pointer = av_packet_alloc() else {
            throw .ffmpeg(FFmpegError(code: onair_averror(12), operation: "av_packet_alloc"))
        }
        self.pointer = pointer
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// A copy of the packet's bytes.
    var bytes: [UInt8] { Self.bytes(of: pointer) }

    /// A copy of `packet`'s bytes.
    static func bytes(of packet: UnsafeMutablePointer<AVPacket>) -> [UInt8] {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }
}
#endif
