#if os(Linux)
import CFFmpeg
import OnAirCore

/// H.265 in a container: the tag Apple's players need, and FLV refused where it cannot carry it.
extension ContainerWriter {
    /// The libavformat version whose FLV muxer writes enhanced RTMP (H.265 in FLV): 60.16, FFmpeg 6.1.
    static let enhancedFLVVersion: UInt32 = 60 << 16 | 16 << 8

    /// Tags an H.265 stream `hvc1` in MP4 and MOV (parameter sets only in the `hvcC` record: what
    /// QuickTime, Safari and iOS play; libavformat's default `hev1` they refuse), and refuses FLV
    /// when this libavformat's FLV muxer predates enhanced RTMP.
    func checkHEVC(_ par: UnsafeMutablePointer<AVCodecParameters>) throws {
        switch formatName {
        case "mp4", "mov":
            par.pointee.codec_tag = Array("hvc1".utf8).reversed().reduce(0) { $0 << 8 | UInt32($1) }
        case "flv" where avformat_version() < Self.enhancedFLVVersion:
            throw SinkError.writeFailed(
                destination: destination,
                reason: "H.265 in FLV/RTMP needs enhanced RTMP, in FFmpeg 6.1 or later; this is FFmpeg "
                    + "\(String(cString: av_version_info())) (Debian 12 ships 5.1): stream H.264 there "
                    + "(--codec h264, or the sub stream) or use SRT, RTSP or HLS")
        default: break
        }
    }
}
#endif
