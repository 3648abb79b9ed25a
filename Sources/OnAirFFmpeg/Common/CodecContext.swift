#if os(Linux)
import CFFmpeg

/// Owns one `AVCodecContext` and frees it in `deinit`.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>
    let codec: UnsafePointer<AVCodec>

    init(codec: UnsafePointer<AVCodec>) throws(EncoderError) {
        guard let pointer = avcodec_alloc_context3(codec) else {
            throw .ffmpeg(FFmpegError(code: onair_averror(12), operation: "avcodec_alloc_context3"))
        }
        self.pointer = pointer
        self.codec = codec
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    var name: String { String(cString: codec.pointee.name) }

    /// Sets a private (encoder-specific) option if this encoder has it; returns whether it did.
    @discardableResult
    func setPrivateOption(_ key: String, _ value: String) throws(EncoderError) -> Bool {
        guard let priv = pointer.pointee.priv_data, av_opt_find(priv, key, nil, 0, 0) != nil else { return false }
        try checkEncoder(av_opt_set(priv, key, value, 0), "av_opt_set(\(name), \(key)=\(value))")
        return true
    }

    /// Opens the codec; the error carries FFmpeg's log lines explaining the failure.
    func open() throws(EncoderError) {
        let (code, lines) = FFmpegLogCapture.capturing { () -> Int32 in avcodec_open2(pointer, codec, nil) }
        if code < 0 {
            let error = FFmpegError(code: code, operation: "avcodec_open2(\(name))")
            let detail = lines.isEmpty ? "" : " (" + lines.joined(separator: "; ") + ")"
            throw .unavailable(encoder: name, reason: error.message + detail)
        }
    }

    /// Sends a frame (nil to drain) and collects every packet ready afterwards.
    func encode(
        _ frame: UnsafeMutablePointer<AVFrame>?, into packet: OwnedPacket,
        _ handle: (UnsafeMutablePointer<AVPacket>) throws(EncoderError) -> Void
    ) throws(EncoderError) {
        try checkEncoder(avcodec_send_frame(pointer, frame), "avcodec_send_frame(\(name))")
        while true {
            let code = avcodec_receive_packet(pointer, packet.pointer)
            if code == onair_averror_eagain() || code == onair_averror_eof() { return }
            try checkEncoder(code, "avcodec_receive_packet(\(name))")
            defer { av_packet_unref(packet.pointer) }
            try handle(packet.pointer)
        }
    }

    /// The codec's extradata bytes (empty when none).
    var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }
}
#endif
