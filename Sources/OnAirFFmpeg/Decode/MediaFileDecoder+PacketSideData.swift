#if os(Linux)
import CFFmpeg

extension MediaFileDecoder {
    /// Copies side data onto `packet` (shared with the remuxer).
    static func attach(_ sideData: [MediaFileReader.SideData], to packet: UnsafeMutablePointer<AVPacket>) throws {
        for item in sideData {
            guard let target = av_packet_new_side_data(packet, AVPacketSideDataType(rawValue: item.type), item.data.count) else {
                throw FFmpegError(code: onair_averror(12), operation: "attach packet side data")
            }
            item.data.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { target.update(from: base, count: item.data.count) }
            }
        }
    }
}
#endif
