#if os(Linux)
import CFFmpeg
import OnAirCore

/// Decodes one H.264 or H.265 keyframe (an IDR with its parameter sets) and encodes the picture as a JPEG
/// with libavcodec's `mjpeg` encoder: the still image of a camera (`/snapshot.jpg`).
package enum KeyframeJPEG {
    /// The JPEG of `packet`'s picture; `quality` is the encoder's scale, 2 (best) to 31.
    package static func jpeg(of packet: EncodedPacket, quality: Int = 3) throws -> [UInt8] {
        guard packet.mediaType == .video, packet.codec == .h264 || packet.codec == .h265, packet.isKeyframe else {
            throw FFmpegError(code: onair_averror(22), operation: "a snapshot needs an H.264 or H.265 keyframe")
        }
        // Annex-B with the parameter sets in band: all a decoder needs to start.
        let bytes = try ContainerSink.payload(of: packet, avcc: false)
        let frame = try decode(bytes, codec: packet.codec == .h265 ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264)
        defer {
            var pointer: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&pointer)
        }
        return try encode(frame, quality: quality)
    }

    private static func decode(_ bytes: [UInt8], codec id: AVCodecID) throws -> UnsafeMutablePointer<AVFrame> {
        guard let codec = avcodec_find_decoder(id), let context = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: onair_averror(12), operation: "allocate a video decoder")
        }
        defer {
            var pointer: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&pointer)
        }
        context.pointee.thread_count = 1
        try check(avcodec_open2(context, codec, nil), "open the video decoder")
        guard let packet = av_packet_alloc() else { throw FFmpegError(code: onair_averror(12), operation: "av_packet_alloc") }
        defer {
            var pointer: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&pointer)
        }
        try check(av_new_packet(packet, Int32(bytes.count)), "allocate a packet")
        bytes.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
        packet.pointee.flags = onair_pkt_flag_key()
        try check(avcodec_send_packet(context, packet), "decode the keyframe")
        try check(avcodec_send_packet(context, nil), "drain the decoder")
        guard let frame = av_frame_alloc() else { throw FFmpegError(code: onair_averror(12), operation: "av_frame_alloc") }
        let status = avcodec_receive_frame(context, frame)
        guard status >= 0 else {
            var pointer: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&pointer)
            throw FFmpegError(code: status, operation: "decode the keyframe")
        }
        return frame
    }

    private static func encode(_ frame: UnsafeMutablePointer<AVFrame>, quality: Int) throws -> [UInt8] {
        let width = frame.pointee.width, height = frame.pointee.height
        guard width > 0, height > 0, let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG),
            let context = avcodec_alloc_context3(codec), let picture = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FFmpegError(code: onair_averror(12), operation: "allocate a JPEG encoder") }
        var contextPointer: UnsafeMutablePointer<AVCodecContext>? = context
        var picturePointer: UnsafeMutablePointer<AVFrame>? = picture
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer {
            avcodec_free_context(&contextPointer)
            av_frame_free(&picturePointer)
            av_packet_free(&packetPointer)
        }
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.flags |= AV_CODEC_FLAG_QSCALE
        context.pointee.global_quality = Int32(max(2, min(31, quality))) * FF_QP2LAMBDA
        try check(avcodec_open2(context, codec, nil), "open the JPEG encoder")
        picture.pointee.width = width
        picture.pointee.height = height
        picture.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        try check(av_frame_get_buffer(picture, 0), "allocate the JPEG picture")
        guard
            let scaler = sws_getContext(
                width, height, AVPixelFormat(rawValue: frame.pointee.format), width, height, AV_PIX_FMT_YUVJ420P,
                Int32(SWS_BILINEAR), nil, nil, nil)
        else { throw FFmpegError(code: onair_averror(22), operation: "convert the picture for JPEG") }
        defer { sws_freeContext(scaler) }
        // The frames are on the heap (av_frame_alloc): their plane and stride arrays stay put.
        let dataOffset = MemoryLayout<AVFrame>.offset(of: \AVFrame.data) ?? 0
        let linesOffset = MemoryLayout<AVFrame>.offset(of: \AVFrame.linesize) ?? 0
        let from = UnsafeMutableRawPointer(frame), to = UnsafeMutableRawPointer(picture)
        let source = (from + dataOffset).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let sourceLines = (from + linesOffset).assumingMemoryBound(to: Int32.self)
        let target = (to + dataOffset).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        let targetLines = (to + linesOffset).assumingMemoryBound(to: Int32.self)
        sws_scale(scaler, source, sourceLines, 0, height, target, targetLines)
        picture.pointee.pts = 0
        try check(avcodec_send_frame(context, picture), "encode the JPEG")
        try check(avcodec_send_frame(context, nil), "drain the JPEG encoder")
        try check(avcodec_receive_packet(context, packet), "take the JPEG")
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}
#endif
