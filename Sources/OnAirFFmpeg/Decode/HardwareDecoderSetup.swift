#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// Attaches a hardware device to a decoder context before it opens, and brings decoded surfaces
/// back to system memory.
enum HardwareDecoderSetup {
    /// Tries the device types `choice` allows that `codec` supports; on success the context gets the
    /// device and a `get_format` that picks its surface format (software formats stay the fallback
    /// when the hardware refuses a stream). Throws only when `.only(type)` cannot be had.
    static func attach(
        _ choice: HardwareDecoding, codec: UnsafePointer<AVCodec>,
        context: UnsafeMutablePointer<AVCodecContext>
    ) throws -> HardwareDecodingOutcome {
        var outcome = HardwareDecodingOutcome()
        if choice == .none { return outcome }
        var supported: [AVHWDeviceType] = []
        var index: Int32 = 0
        while let config = avcodec_get_hw_config(codec, index) {
            index += 1
            let type = config.pointee.device_type
            if config.pointee.methods & Int32(AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) != 0, !supported.contains(type) {
                supported.append(type)
            }
        }
        let codecName = String(cString: codec.pointee.name)
        if case .only(let name) = choice {
            let type = av_hwdevice_find_type_by_name(name)
            guard type != AV_HWDEVICE_TYPE_NONE else {
                throw HardwareDecodingError(description: "hardware decoding '\(name)': not a device type this FFmpeg knows")
            }
            guard supported.contains(type) else {
                throw HardwareDecodingError(description: "hardware decoding '\(name)': the \(codecName) decoder cannot use it")
            }
            supported = [type]
        }
        for type in supported {
            let name = String(cString: av_hwdevice_get_type_name(type))
            var device: UnsafeMutablePointer<AVBufferRef>?
            var path: String?
            if type == AV_HWDEVICE_TYPE_VAAPI {
                path = HardwareFrames.renderNode()
                if path == nil {
                    outcome.unavailable.append("\(name): no /dev/dri/renderD* render node")
                    continue
                }
            }
            let (status, lines) = FFmpegLogCapture.capturing(maximumLevel: AV_LOG_ERROR) {
                av_hwdevice_ctx_create(&device, type, path, nil, 0)
            }
            if status < 0 {
                let detail = lines.first.map { " (\($0))" } ?? ""
                outcome.unavailable.append("\(name): \(FFmpegError.message(for: status))\(detail)")
                continue
            }
            context.pointee.hw_device_ctx = device
            context.pointee.get_format = { _, formats in
                // The first hardware surface format offered (the device attached decides which
                // one libavcodec offers), else the first software one.
                guard var cursor = formats else { return AV_PIX_FMT_NONE }
                var software = AV_PIX_FMT_NONE
                while cursor.pointee != AV_PIX_FMT_NONE {
                    let format = cursor.pointee
                    if let descriptor = av_pix_fmt_desc_get(format), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) != 0 {
                        return format
                    }
                    if software == AV_PIX_FMT_NONE { software = format }
                    cursor += 1
                }
                return software
            }
            outcome.device = name
            return outcome
        }
        if case .only = choice {
            throw HardwareDecodingError(description: "hardware decoding unavailable: \(outcome.unavailable.joined(separator: "; "))")
        }
        return outcome
    }

    /// A software copy of `frame` when it is a hardware surface, else nil (use `frame` as it is).
    static func download(_ frame: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<AVFrame>) throws -> Bool {
        guard frame.pointee.hw_frames_ctx != nil else { return false }
        av_frame_unref(target)
        try check(av_hwframe_transfer_data(target, frame, 0), "copy a decoded frame from the hardware")
        try check(av_frame_copy_props(target, frame), "copy a decoded frame's properties")
        return true
    }
}
#endif
