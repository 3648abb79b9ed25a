#if os(Linux)
import CFFmpeg
import Foundation

/// Owns a hardware device and a pool of hardware frames for an encoder that takes GPU surfaces
/// (VAAPI); uploads software frames into it. Both references are released in `deinit`.
final class HardwareFrames {
    private var device: UnsafeMutablePointer<AVBufferRef>?
    private var frames: UnsafeMutablePointer<AVBufferRef>?
    private let upload: OwnedFrame

    /// The first `/dev/dri/renderD*` node, or nil when the machine has none.
    static func renderNode() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("renderD") }.sorted().first.map { "/dev/dri/" + $0 }
    }

    init(
        type: AVHWDeviceType, device path: String?, hardwareFormat: AVPixelFormat,
        softwareFormat: AVPixelFormat, width: Int, height: Int
    ) throws(EncoderError) {
        upload = try OwnedFrame()
        try checkEncoder(av_hwdevice_ctx_create(&device, type, path, nil, 0), "av_hwdevice_ctx_create(\(path ?? "default"))")
        guard let framesRef = av_hwframe_ctx_alloc(device) else {
            throw .ffmpeg(FFmpegError(code: onair_averror(12), operation: "av_hwframe_ctx_alloc"))
        }
        frames = framesRef
        framesRef.pointee.data.withMemoryRebound(to: AVHWFramesContext.self, capacity: 1) { context in
            context.pointee.format = hardwareFormat
            context.pointee.sw_format = softwareFormat
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.initial_pool_size = 20
        }
        try checkEncoder(av_hwframe_ctx_init(framesRef), "av_hwframe_ctx_init")
    }

    deinit {
        av_buffer_unref(&frames)
        av_buffer_unref(&device)
    }

    /// A new reference to the frames context, for `AVCodecContext.hw_frames_ctx`.
    func newFramesReference() -> UnsafeMutablePointer<AVBufferRef>? { av_buffer_ref(frames) }

    /// Copies `software` into a hardware surface and returns the surface frame (valid until the next call).
    func upload(_ software: OwnedFrame) throws(EncoderError) -> OwnedFrame {
        av_frame_unref(upload.pointer)
        try checkEncoder(av_hwframe_get_buffer(frames, upload.pointer, 0), "av_hwframe_get_buffer")
        try checkEncoder(av_hwframe_transfer_data(upload.pointer, software.pointer, 0), "av_hwframe_transfer_data")
        try checkEncoder(av_frame_copy_props(upload.pointer, software.pointer), "av_frame_copy_props")
        return upload
    }
}
#endif
