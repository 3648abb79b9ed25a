#if os(Linux)
import CFFmpeg
import OnAirCore

/// Reads the packets of a media file (MP4, MOV, TS, FLV, raw H.264/AAC, …) with libavformat.
///
/// It only demuxes: packets come out as the container stores them (AVCC or Annex-B H.264,
/// raw or ADTS AAC), described by `streams`. Not thread-safe; use it from one thread.
package final class MediaFileReader {
    /// One stream of the file as libavformat describes it.
    package struct Stream: Sendable {
        /// The stream's index in the container.
        package var index: Int
        /// Video, audio or nil for other kinds (subtitles, data).
        package var mediaType: MediaType?
        /// FFmpeg's short codec name ("h264", "aac", …).
        package var codecName: String
        /// The codec's out-of-band configuration (avcC, AudioSpecificConfig, or Annex-B parameter sets).
        package var extradata: [UInt8]
        /// The unit of the packets' timestamps.
        package var timeBase: MediaTime
        /// Video size in pixels (0 for audio).
        package var width: Int, height: Int
        /// Audio sample rate and channel count (0 for video).
        package var sampleRate: Int, channels: Int
        /// The container's average frame rate, if it states one.
        package var averageFrameRate: Double?
        /// The stream's duration as the container states it, in seconds.
        package var duration: Double?
    }

    /// One demuxed packet.
    package struct Packet: Sendable {
        /// Index of the stream the packet belongs to.
        package var streamIndex: Int
        /// The packet's bytes as stored in the container.
        package var data: [UInt8]
        /// Presentation and decoding time in seconds, when the container gives them.
        package var pts: Double?, dts: Double?
        /// The packet's duration in seconds (0 when unknown).
        package var duration: Double
        /// The container marks the packet as a keyframe.
        package var isKeyframe: Bool
        /// The demuxer marks the packet as damaged (e.g. MPEG-TS continuity errors, lost datagrams).
        package var isCorrupt: Bool = false
        /// The packet was read while the input was being probed at open (its bytes came before
        /// `probedBytes`): for a live input, it has waited in the demuxer's buffer. Nil when the
        /// demuxer gives no byte position.
        package var readWhileProbing: Bool? = nil
        /// Set by `MediaFileDecoder` on a video packet it does not decode because it came before
        /// the first keyframe (see `waitsForVideoKeyFrame`); a copy should leave it out too.
        package var isBeforeFirstKeyFrame = false
        /// The demuxer's side data, passed on to the decoder — above all new extradata (fresh
        /// parameter sets when a stream changes resolution mid-way, e.g. a new FLV sequence header).
        package var sideData: [SideData] = []
    }

    /// One piece of packet side data: libavcodec's `AVPacketSideDataType` (raw value) and its bytes.
    package struct SideData: Sendable, Equatable {
        /// The `AVPacketSideDataType` raw value.
        package var type: UInt32
        /// The side data's bytes.
        package var data: [UInt8]

        /// Wraps one piece of side data.
        package init(type: UInt32, data: [UInt8]) {
            self.type = type
            self.data = data
        }

        /// Whether this is new extradata (AV_PKT_DATA_NEW_EXTRADATA).
        package var isNewExtradata: Bool { type == AV_PKT_DATA_NEW_EXTRADATA.rawValue }
    }

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let interrupt: CaptureInterrupt?
    /// The file's streams.
    package let streams: [Stream]
    /// Bytes of input consumed by the time the streams were known (nil without a byte stream,
    /// e.g. a capture device).
    package let probedBytes: Int64?
    /// The name of the container format libavformat detected ("mov,mp4,m4a,3gp,3g2,mj2", "mpegts", …).
    package let formatName: String
    /// Whether the input has no known size and cannot seek: a live stream read as it goes (an HTTP
    /// response without Content-Length, a pipe), as opposed to a file or a finished resource.
    package let isUnbounded: Bool

    /// Opens `path` and reads enough of it to describe its streams.
    ///
    /// - Parameters:
    ///   - format: a libavformat input format to force (e.g. "h264", or a device such as
    ///     "x11grab", "v4l2", "pulse", "alsa"), or nil to detect it from the content.
    ///   - options: demuxer or device options (e.g. `video_size`, `framerate`, `sample_rate`).
    ///   - interrupt: a flag that, once raised, ends a pending open or read promptly; with it the
    ///     input is read in non-blocking mode and `nextPacket` polls until data arrives.
    ///   - nonBlocking: with `interrupt`, whether to read in non-blocking mode (devices); false keeps
    ///     blocking reads that libavformat's network protocols end when the flag is raised.
    package init(
        path: String, format: String? = nil, options: [String: String] = [:],
        interrupt: CaptureInterrupt? = nil, nonBlocking: Bool = true
    ) throws {
        // A forced format libavformat does not know is a device: load libavdevice for it.
        if let format, av_find_input_format(format) == nil { try Self.registerDevices() }
        self.interrupt = interrupt
        var ctx: UnsafeMutablePointer<AVFormatContext>? = nil
        if let interrupt {
            guard let allocated = avformat_alloc_context() else {
                throw FFmpegError(code: onair_averror(12), operation: "avformat_alloc_context")
            }
            allocated.pointee.interrupt_callback = interrupt.callback
            if nonBlocking { allocated.pointee.flags |= AVFMT_FLAG_NONBLOCK }
            ctx = allocated
        }
        let inputFormat = format.flatMap { av_find_input_format($0) }
        if let format, inputFormat == nil {
            throw FFmpegError(code: onair_averror_invaliddata(), operation: "find input format '\(format)'")
        }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        try check(avformat_open_input(&ctx, path, inputFormat, &dictionary), "open \(path)")
        if let unused = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
            avformat_close_input(&ctx)
            throw FFmpegError(
                code: onair_averror(22),
                operation: "open \(path): option '\(String(cString: unused.pointee.key))' not recognised")
        }
        do {
            // Probing a live stream joined between keyframes makes the decoders complain about
            // every packet before the first one; that is expected, so it is kept off stderr and
            // only quoted should the probe fail.
            let (status, lines) = FFmpegLogCapture.capturing(maximumLevel: AV_LOG_ERROR) { avformat_find_stream_info(ctx, nil) }
            let detail = status < 0 && !lines.isEmpty ? " (\(lines.suffix(3).joined(separator: "; ")))" : ""
            try check(status, "read stream info of \(path)\(detail)")
        } catch {
            avformat_close_input(&ctx)
            throw error
        }
        guard let ctx, let pkt = av_packet_alloc() else {
            avformat_close_input(&ctx)
            throw FFmpegError(code: onair_averror(12), operation: "av_packet_alloc")
        }
        context = ctx
        packet = pkt
        if let pb = ctx.pointee.pb {
            let position = avio_seek(pb, 0, SEEK_CUR)  // avio_tell: where the demuxer has read to
            probedBytes = position >= 0 ? position : nil
        } else {
            probedBytes = nil
        }
        formatName = String(cString: ctx.pointee.iformat.pointee.name)
        // No size and no way to seek: a stream that goes on while it is read (a live HTTP response
        // has no Content-Length and cannot take a range request; a file served over HTTP has a
        // length even where the server takes no ranges). The duration tells nothing here: the MP4
        // demuxer gives a live fragmented stream the length of the fragments it probed.
        isUnbounded = ctx.pointee.pb.map { $0.pointee.seekable == 0 && avio_size($0) < 0 } ?? false
        var described: [Stream] = []
        for i in 0..<Int(ctx.pointee.nb_streams) {
            guard let avStream = ctx.pointee.streams[i], let par = avStream.pointee.codecpar else { continue }
            described.append(Self.describe(avStream.pointee, par.pointee, index: i))
        }
        streams = described
    }

    /// Makes libavdevice's capture formats (x11grab, v4l2, alsa, pulse) known to libavformat,
    /// loading libavdevice the first time (see `DeviceLibrary`); throws when it cannot be loaded.
    static func registerDevices() throws(CaptureError) {
        _ = try DeviceLibrary.loaded.get()
    }

    deinit {
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
        avformat_close_input(&context)
    }

    /// The codec parameters of stream `index`, valid while the reader lives (for setting up decoders).
    func codecParameters(of index: Int) -> UnsafePointer<AVCodecParameters>? {
        guard let context, index >= 0, index < Int(context.pointee.nb_streams) else { return nil }
        return UnsafePointer(context.pointee.streams[index]?.pointee.codecpar)
    }

    /// The kind of stream `index`, also of a stream the demuxer added after the open (a new
    /// MPEG-TS program); nil for other kinds or an index out of range.
    func mediaType(ofStream index: Int) -> MediaType? {
        guard let context, index >= 0, index < Int(context.pointee.nb_streams),
            let par = context.pointee.streams[index]?.pointee.codecpar
        else { return nil }
        switch par.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO: return .video
        case AVMEDIA_TYPE_AUDIO: return .audio
        default: return nil
        }
    }

    /// Stream `index` as it is described now (also one added after the open).
    func describeStream(_ index: Int) -> Stream? {
        guard let context, index >= 0, index < Int(context.pointee.nb_streams),
            let stream = context.pointee.streams[index], let par = stream.pointee.codecpar
        else { return nil }
        return Self.describe(stream.pointee, par.pointee, index: index)
    }

    /// Reads the next packet, or returns nil at the end of the file.
    package func nextPacket() throws -> Packet? {
        guard let context else { return nil }
        var status = av_read_frame(context, packet)
        // Non-blocking devices (v4l2, alsa) answer EAGAIN until data is ready: poll, unless interrupted.
        while status == onair_averror_eagain(), let interrupt {
            status = interrupt.pauseBeforeRetry() ? av_read_frame(context, packet) : CaptureInterrupt.exitCode
        }
        if status == onair_averror_eof() { return nil }
        try check(status, "read packet")
        defer { av_packet_unref(packet) }
        // Reading was stopped: a demuxer whose read was cut short hands over what it held (MPEG-TS
        // flushes the partial PES as a packet flagged corrupt), which is not damage in the input.
        if interrupt?.isRaised == true { return nil }
        let p = packet.pointee
        let index = Int(p.stream_index)
        let timeBase = context.pointee.streams[index]!.pointee.time_base
        let scale = Double(timeBase.num) / Double(timeBase.den)
        let noPTS = onair_nopts_value()
        let data =
            p.size > 0 && p.data != nil
            ? Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))) : []
        return Packet(
            streamIndex: index,
            data: data,
            pts: p.pts == noPTS ? nil : Double(p.pts) * scale,
            dts: p.dts == noPTS ? nil : Double(p.dts) * scale,
            duration: Double(p.duration) * scale,
            isKeyframe: (p.flags & onair_pkt_flag_key()) != 0,
            isCorrupt: (p.flags & AV_PKT_FLAG_CORRUPT) != 0,
            readWhileProbing: p.pos >= 0 ? probedBytes.map { p.pos < $0 } : nil,
            sideData: Self.sideData(of: p)
        )
    }

    /// Copies a packet's side data (bounded by the counts libavformat gives).
    private static func sideData(of p: AVPacket) -> [SideData] {
        guard p.side_data_elems > 0, let elements = p.side_data else { return [] }
        return (0..<Int(p.side_data_elems)).compactMap { index in
            let element = elements[index]
            guard element.size > 0, let data = element.data else { return nil }
            return SideData(type: element.type.rawValue, data: Array(UnsafeBufferPointer(start: data, count: Int(element.size))))
        }
    }

    private static func describe(_ stream: AVStream, _ par: AVCodecParameters, index: Int) -> Stream {
        let type: MediaType?
        switch par.codec_type {
        case AVMEDIA_TYPE_VIDEO: type = .video
        case AVMEDIA_TYPE_AUDIO: type = .audio
        default: type = nil
        }
        let extradata =
            par.extradata_size > 0 && par.extradata != nil
            ? Array(UnsafeBufferPointer(start: par.extradata, count: Int(par.extradata_size))) : []
        let rate = stream.avg_frame_rate
        let tb = stream.time_base
        return Stream(
            index: index,
            mediaType: type,
            codecName: String(cString: avcodec_get_name(par.codec_id)),
            extradata: extradata,
            timeBase: MediaTime(value: Int64(tb.num), timescale: tb.den),
            width: Int(par.width), height: Int(par.height),
            sampleRate: Int(par.sample_rate), channels: Int(par.ch_layout.nb_channels),
            averageFrameRate: rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : nil,
            duration: stream.duration != onair_nopts_value() && tb.den > 0
                ? Double(stream.duration) * Double(tb.num) / Double(tb.den) : nil
        )
    }
}
#endif
