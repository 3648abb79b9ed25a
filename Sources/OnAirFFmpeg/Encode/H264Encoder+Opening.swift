#if os(Linux)
import CFFmpeg
import OnAirCore

/// Opening: finding the named encoder, its pixel format, hardware frames, profile, level, rates and
/// the options each encoder family takes.
extension H264Encoder {
    /// Opens encoder `name` for `settings` at `level`: its context, the hardware frames a VA-API
    /// encoder uploads into, and the software pixel format it takes.
    static func open(name: String, settings: VideoEncoderSettings, level: H264Level)
        throws(EncoderError) -> (CodecContext, HardwareFrames?, AVPixelFormat)
    {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw .unavailable(encoder: name, reason: "not in this FFmpeg build")
        }
        let hevc = settings.codec == .h265
        guard codec.pointee.id == (hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264) else {
            throw .unavailable(encoder: name, reason: hevc ? "not an H.265 encoder" : "not an H.264 encoder")
        }
        var hardware: HardwareFrames?
        var inputFormat = preferredSoftwareFormat(codec)
        let context = try CodecContext(codec: codec)
        let c = context.pointer
        if name.hasSuffix("_vaapi") {
            guard let node = HardwareFrames.renderNode() else {
                throw .unavailable(encoder: name, reason: "no /dev/dri/renderD* render node")
            }
            inputFormat = AV_PIX_FMT_NV12
            do {
                hardware = try HardwareFrames(
                    type: AV_HWDEVICE_TYPE_VAAPI, device: node, hardwareFormat: AV_PIX_FMT_VAAPI,
                    softwareFormat: inputFormat, width: settings.width, height: settings.height)
            } catch {
                throw .unavailable(encoder: name, reason: "\(error)")
            }
            c.pointee.pix_fmt = AV_PIX_FMT_VAAPI
            c.pointee.hw_frames_ctx = hardware?.newFramesReference()
        } else {
            c.pointee.pix_fmt = inputFormat
        }
        c.pointee.width = Int32(settings.width)
        c.pointee.height = Int32(settings.height)
        c.pointee.time_base = AVRational(num: 1, den: microseconds)
        c.pointee.framerate = av_d2q(settings.expectedFrameRate, 1_001_000)
        c.pointee.gop_size = Int32(settings.effectiveKeyFrameInterval)
        let reorder = settings.allowFrameReordering && !settings.realTime && settings.profileLevel.profile != .baseline
        c.pointee.max_b_frames = reorder ? 3 : 0
        applyRates(settings, to: c)
        if hevc {
            if let preset = encoderPreset(settings.preset, for: name) { try context.setPrivateOption("preset", preset) }
            try applyHEVCOptions(settings, name: name, reorder: reorder, to: context)
            try context.open()
            return (context, hardware, inputFormat)
        }
        let profile = settings.profileLevel.profile
        c.pointee.profile = profile == .baseline ? FF_PROFILE_H264_CONSTRAINED_BASELINE : Int32(profile.profileIDC)
        c.pointee.level = Int32(level.levelIDC)

        if let preset = encoderPreset(settings.preset, for: name) { try context.setPrivateOption("preset", preset) }
        try context.setPrivateOption("profile", profile.rawValue)
        try context.setPrivateOption("level", level.description)
        try context.setPrivateOption("forced-idr", "1")
        try context.setPrivateOption("forced_idr", "1")
        if profile == .baseline { try context.setPrivateOption("coder", "cavlc") }
        if name == "libx264" {
            var params = ["bframes=\(reorder ? 3 : 0)", "keyint=\(settings.effectiveKeyFrameInterval)", "annexb=1", "repeat-headers=1"]
            // x264 signals the lowest profile its tools need, so switch on what the requested profile means
            // (fast presets turn CABAC and 8×8 transforms off and would otherwise yield Constrained Baseline).
            switch profile {
            case .baseline: params += ["cabac=0", "8x8dct=0"]
            case .main: params += ["cabac=1", "8x8dct=0"]
            case .high: params += ["cabac=1", "8x8dct=1"]
            }
            if settings.realTime {
                try context.setPrivateOption("tune", "zerolatency")
                params += ["rc-lookahead=0", "sync-lookahead=0", "sliced-threads=1"]
            }
            try context.setPrivateOption("x264-params", params.joined(separator: ":"))
        } else if settings.realTime {
            try context.setPrivateOption("zerolatency", "1")
            try context.setPrivateOption("delay", "0")
            try context.setPrivateOption("async_depth", "1")
            try context.setPrivateOption("look_ahead", "0")
        }
        try context.open()
        return (context, hardware, inputFormat)
    }

    /// The x264 preset name translated to the encoder's own vocabulary (nil: it has no preset option).
    private static func encoderPreset(_ preset: String, for name: String) -> String? {
        let index = VideoEncoderSettings.presets.firstIndex(of: preset) ?? 2
        if name.hasPrefix("libx264") || name == "libx265" { return preset }
        if name.hasSuffix("_nvenc") { return ["p1", "p1", "p2", "p3", "p4", "p4", "p5", "p6", "p7", "p7"][index] }
        if name.hasSuffix("_qsv") {
            return ["veryfast", "veryfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "veryslow"][index]
        }
        return nil
    }

    /// yuv420p when the encoder takes it, else nv12, else its first software format.
    private static func preferredSoftwareFormat(_ codec: UnsafePointer<AVCodec>) -> AVPixelFormat {
        guard var formats = onair_codec_pixel_formats(codec) else { return AV_PIX_FMT_YUV420P }
        var offered: [AVPixelFormat] = []
        while formats.pointee != AV_PIX_FMT_NONE {
            offered.append(formats.pointee)
            formats += 1
        }
        for preferred in [AV_PIX_FMT_YUV420P, AV_PIX_FMT_NV12] where offered.contains(preferred) { return preferred }
        return offered.first { format in
            guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
            return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0
        } ?? AV_PIX_FMT_YUV420P
    }

    /// Bit rate and VBV (from the tightest data-rate limit) onto the codec context.
    static func applyRates(_ settings: VideoEncoderSettings, to c: UnsafeMutablePointer<AVCodecContext>) {
        c.pointee.bit_rate = Int64(settings.averageBitRate)
        if let tightest = settings.dataRateLimits.min(by: { $0.bitsPerSecond < $1.bitsPerSecond }) {
            c.pointee.rc_max_rate = Int64(tightest.bitsPerSecond)
            c.pointee.rc_buffer_size = Int32(clamping: tightest.bytes * 8)
        } else {
            c.pointee.rc_max_rate = 0
            c.pointee.rc_buffer_size = 0
        }
    }
}
#endif
