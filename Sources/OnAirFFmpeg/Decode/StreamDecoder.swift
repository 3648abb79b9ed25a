#if os(Linux)
import CFFmpeg
import OnAirCore

/// One libavcodec decoder plus the conversion of its frames into OnAir's types.
final class StreamDecoder {
    let streamIndex: Int
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    private let timeBase: AVRational
    private let videoOutput: MediaFileDecoder.VideoOutput?
    private var scaler: OpaquePointer?
    private var scalerSource: (Int32, Int32, Int32) = (0, 0, -1)
    private var framePool: VideoFramePool?
    private var resampler: OpaquePointer?
    private var nextAudioPTS: Int64?
    /// Rejected packets and damaged or concealed frames.
    private(set) var errors = 0
    /// The libavcodec decoder's name.
    let decoderName: String
    /// Hardware decoding in use and what was tried.
    private(set) var hardware = HardwareDecodingOutcome()
    private var downloaded: UnsafeMutablePointer<AVFrame>?

    init(
        reader: MediaFileReader, stream: MediaFileReader.Stream, videoOutput: MediaFileDecoder.VideoOutput?,
        lowDelay: Bool = false, hardware choice: HardwareDecoding = .none
    ) throws {
        streamIndex = stream.index
        self.videoOutput = videoOutput
        timeBase = AVRational(num: Int32(stream.timeBase.value), den: stream.timeBase.timescale)
        guard let parameters = reader.codecParameters(of: stream.index),
            let codec = avcodec_find_decoder(parameters.pointee.codec_id)
        else {
            throw FFmpegError(code: onair_averror_invaliddata(), operation: "find a decoder for \(stream.codecName)")
        }
        guard let ctx = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc() else {
            throw FFmpegError(code: onair_averror(12), operation: "allocate a \(stream.codecName) decoder")
        }
        context = ctx
        decoderName = String(cString: codec.pointee.name)
        self.frame = frame
        self.packet = packet
        try check(avcodec_parameters_to_context(ctx, parameters), "configure the \(stream.codecName) decoder")
        ctx.pointee.pkt_timebase = timeBase
        if lowDelay { ctx.pointee.flags |= AV_CODEC_FLAG_LOW_DELAY }
        // As many threads as cores; with low delay libavcodec keeps to slice threads, which add no delay.
        ctx.pointee.thread_count = 0
        if videoOutput != nil && choice != .none {
            hardware = try HardwareDecoderSetup.attach(choice, codec: codec, context: ctx)
            if hardware.device != nil { downloaded = av_frame_alloc() }
        }
        try check(avcodec_open2(ctx, codec, nil), "open the \(stream.codecName) decoder")
    }

    deinit {
        avcodec_free_context(&context)
        var framePointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&framePointer)
        av_frame_free(&downloaded)
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
        sws_freeContext(scaler)
        swr_free(&resampler)
    }

    /// Sends a packet (nil to drain) and returns every frame the decoder has ready.
    func decode(_ input: MediaFileReader.Packet?) throws -> [MediaFileDecoder.Output] {
        guard let context else { return [] }
        if let input {
            try check(av_new_packet(packet, Int32(input.data.count)), "allocate a packet")
            defer { av_packet_unref(packet) }
            input.data.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { packet.pointee.data.update(from: base, count: input.data.count) }
            }
            let scale = Double(timeBase.den) / Double(timeBase.num)
            packet.pointee.pts = input.pts.map { Int64(($0 * scale).rounded()) } ?? onair_nopts_value()
            packet.pointee.dts = input.dts.map { Int64(($0 * scale).rounded()) } ?? onair_nopts_value()
            packet.pointee.flags = input.isKeyframe ? onair_pkt_flag_key() : 0
            // New extradata and the rest reach the decoder: a resolution change mid-stream may
            // carry its parameter sets only there.
            try MediaFileDecoder.attach(input.sideData, to: packet)
            let status = avcodec_send_packet(context, packet)
            // A damaged packet is the decoder's to conceal; only hard failures stop decoding.
            if status < 0 && status != onair_averror_invaliddata() { try check(status, "decode a packet") }
            if status == onair_averror_invaliddata() { errors += 1 }
        } else {
            try check(avcodec_send_packet(context, nil), "drain the decoder")
        }
        var outputs: [MediaFileDecoder.Output] = []
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == onair_averror_eagain() || status == onair_averror_eof() { break }
            // A frame the decoder could only partly reconstruct still comes out, and is counted.
            if status == onair_averror_invaliddata() {
                errors += 1
                break
            }
            try check(status, "receive a decoded frame")
            defer { av_frame_unref(frame) }
            if frame.pointee.decode_error_flags != 0 || (frame.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 { errors += 1 }
            if let videoOutput {
                // A hardware surface is copied to system memory first.
                let source = try downloaded.flatMap { try HardwareDecoderSetup.download(frame, into: $0) ? $0 : nil } ?? frame
                outputs.append(.video(try convertVideo(videoOutput, from: source)))
            } else {
                outputs.append(.audio(try convertAudio()))
            }
        }
        return outputs
    }

    private func time(_ value: Int64) -> MediaTime {
        // Microseconds keep sub-frame precision whatever the stream's time base.
        MediaTime(value: av_rescale_q(value, timeBase, onair_time_base_q()), timescale: 1_000_000)
    }

    private func convertVideo(_ requested: MediaFileDecoder.VideoOutput, from frame: UnsafeMutablePointer<AVFrame>) throws -> VideoFrame {
        let f = frame.pointee
        let source = (f.width, f.height, f.format)
        var output = requested  // the requested size, or the frame's own
        if output.width == 0 || output.height == 0 {
            output.width = Int(f.width)
            output.height = Int(f.height)
        }
        if scaler == nil || scalerSource != source {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                f.width, f.height, AVPixelFormat(rawValue: f.format),
                Int32(output.width), Int32(output.height), output.pixelFormat.avPixelFormat,
                SWS_BICUBIC, nil, nil, nil)
            scalerSource = source
            guard scaler != nil else {
                throw FFmpegError(code: onair_averror(22), operation: "convert \(f.width)x\(f.height) video")
            }
        }
        let pts = f.best_effort_timestamp != onair_nopts_value() ? f.best_effort_timestamp : f.pts
        let stamp = pts == onair_nopts_value() ? MediaTime.zero : time(pts)
        // Already as asked: hand out the decoder's own buffers.
        if Int(f.width) == output.width, Int(f.height) == output.height, f.format == output.pixelFormat.avPixelFormat.rawValue,
            let wrapped = AVFrameStorage.videoFrame(wrapping: frame, pixelFormat: output.pixelFormat, pts: stamp)
        {
            return wrapped
        }
        if framePool?.matches(width: output.width, height: output.height, pixelFormat: output.pixelFormat) != true {
            framePool = VideoFramePool(width: output.width, height: output.height, pixelFormat: output.pixelFormat)
        }
        // swscale writes all planes in one call, straight into a pooled frame.
        let result = framePool!.makeFrame(pts: stamp)
        let buffer = result.planes[0].buffer
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var targets: [UnsafeMutablePointer<UInt8>?] =
            result.planes.map { base + $0.offset }
            + [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4 - result.planes.count)
        var strides: [Int32] = result.planes.map { Int32($0.bytesPerRow) } + [Int32](repeating: 0, count: 4 - result.planes.count)
        let rows = withUnsafeBytes(of: f.data) { data in
            withUnsafeBytes(of: f.linesize) { lines in
                sws_scale(
                    scaler, data.bindMemory(to: UnsafePointer<UInt8>?.self).baseAddress,
                    lines.bindMemory(to: Int32.self).baseAddress, 0, f.height, &targets, &strides)
            }
        }
        try check(rows, "convert a decoded frame")
        return result
    }

    private func convertAudio() throws -> PCMBuffer {
        let f = frame.pointee
        let channels = Int(f.ch_layout.nb_channels)
        let count = Int(f.nb_samples)
        var pts = f.best_effort_timestamp != onair_nopts_value() ? f.best_effort_timestamp : f.pts
        if pts == onair_nopts_value() { pts = nextAudioPTS ?? 0 }
        nextAudioPTS = pts + av_rescale_q(Int64(count), AVRational(num: 1, den: f.sample_rate), timeBase)
        let start = time(pts)
        let format = AVSampleFormat(rawValue: f.format)
        if let (sampleFormat, planar) = Self.sampleFormat(format) {
            let planeCount = planar ? channels : 1
            let bytes = count * sampleFormat.bytesPerSample * (planar ? 1 : channels)
            // The decoder's own sample buffers, without a copy.
            if let buffers = AVFrameStorage.sampleBuffers(wrapping: frame, planeCount: planeCount, bytesPerPlane: bytes) {
                return PCMBuffer(
                    sampleFormat: sampleFormat, isPlanar: planar, sampleRate: Int(f.sample_rate),
                    channels: channels, frameCount: count, planeBuffers: buffers, pts: start)
            }
            let planes = (0..<planeCount).map { index in Array(UnsafeBufferPointer(start: f.extended_data[index], count: bytes)) }
            return PCMBuffer(
                sampleFormat: sampleFormat, isPlanar: planar, sampleRate: Int(f.sample_rate),
                channels: channels, frameCount: count, planes: planes, pts: start)
        }
        // Other layouts (u8, double, s64) are converted to interleaved f32.
        if resampler == nil {
            var inputLayout = f.ch_layout
            var outputLayout = f.ch_layout
            try check(
                swr_alloc_set_opts2(
                    &resampler, &outputLayout, AV_SAMPLE_FMT_FLT, f.sample_rate,
                    &inputLayout, format, f.sample_rate, 0, nil), "set up sample conversion")
            try check(swr_init(resampler), "start sample conversion")
        }
        var output = [UInt8](repeating: 0, count: count * channels * 4)
        let converted = try output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return try check(
                swr_convert(
                    resampler, &target, Int32(count),
                    f.extended_data.withMemoryRebound(
                        to: UnsafePointer<UInt8>?.self, capacity: channels
                    ) { $0 }, f.nb_samples), "convert samples")
        }
        return PCMBuffer(
            sampleFormat: .f32, isPlanar: false, sampleRate: Int(f.sample_rate), channels: channels,
            frameCount: Int(converted), planes: [Array(output.prefix(Int(converted) * channels * 4))],
            pts: start)
    }

    private static func sampleFormat(_ format: AVSampleFormat) -> (PCMSampleFormat, Bool)? {
        switch format {
        case AV_SAMPLE_FMT_S16: return (.s16, false)
        case AV_SAMPLE_FMT_S16P: return (.s16, true)
        case AV_SAMPLE_FMT_S32: return (.s32, false)
        case AV_SAMPLE_FMT_S32P: return (.s32, true)
        case AV_SAMPLE_FMT_FLT: return (.f32, false)
        case AV_SAMPLE_FMT_FLTP: return (.f32, true)
        default: return nil
        }
    }
}
#endif
