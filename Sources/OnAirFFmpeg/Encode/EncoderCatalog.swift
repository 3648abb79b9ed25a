#if os(Linux)
import CFFmpeg
import OnAirCore

/// Every H.264, H.265 and AAC encoder this FFmpeg build knows, and whether each opens on this machine.
package enum EncoderCatalog {
    /// One encoder and its status here.
    package typealias Entry = EncoderAvailability

    /// Lists the encoders, trying to open each (blocks; call off the cooperative pool); `availability`
    /// says which hardware encoders may be tried. What an encoder that does not open prints through
    /// libav's log is kept quiet while it is tried: its reason is in the entry.
    package static func entries(availability: HardwareAvailability = .fromEnvironment) -> [Entry] {
        let level = av_log_get_level()
        av_log_set_level(AV_LOG_QUIET)
        defer { av_log_set_level(level) }
        var entries: [Entry] = []
        var opaque: UnsafeMutableRawPointer?
        while let codec = av_codec_iterate(&opaque) {
            guard av_codec_is_encoder(codec) != 0 else { continue }
            let id = codec.pointee.id
            guard id == AV_CODEC_ID_H264 || id == AV_CODEC_ID_HEVC || id == AV_CODEC_ID_AAC else { continue }
            let name = String(cString: codec.pointee.name)
            let longName = codec.pointee.long_name.map { String(cString: $0) } ?? name
            let hardware =
                codec.pointee.capabilities & Int32(AV_CODEC_CAP_HARDWARE) != 0
                || EncoderSelection.isHardwareCandidate(name)
            var reason: String?
            // libx264rgb takes RGB pictures only; trying it makes x264 print to stderr directly.
            if name == "libx264rgb" { reason = "RGB input only: OnAir encodes YUV 4:2:0" }
            if reason == nil {
                do {
                    if id == AV_CODEC_ID_H264 || id == AV_CODEC_ID_HEVC {
                        let codec: MediaCodec = id == AV_CODEC_ID_HEVC ? .h265 : .h264
                        _ = try H264Encoder(
                            settings: VideoEncoderSettings(width: 320, height: 240, averageBitRate: 500_000, encoder: name, codec: codec),
                            hardware: availability)
                    } else {
                        _ = try AACEncoder(settings: AudioEncoderSettings(), encoderName: name)
                    }
                } catch {
                    if case .unavailable(_, let why) = error { reason = why } else { reason = error.description }
                }
            }
            entries.append(
                Entry(
                    name: name, longName: longName,
                    codec: id == AV_CODEC_ID_H264 ? .h264 : id == AV_CODEC_ID_HEVC ? .h265 : .aac,
                    isHardware: hardware, opens: reason == nil, reason: reason))
        }
        return entries
    }
}
#endif
