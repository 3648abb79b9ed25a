import CFFmpeg
import OnAirCore

/// Writes compressed H.264 and AAC into a container (MP4, MOV, MPEG-TS, FLV, …) with libavformat.
///
/// The caller hands over packets already in the container's bitstream form (AVCC for MP4/MOV/FLV,
/// Annex-B for MPEG-TS) with timestamps from the capture clock; the writer rescales them to the
/// container's time base. Use it from one thread at a time; `finish()` writes the trailer.
public final class ContainerWriter {
    /// One stream to create in the container.
    public struct Track: Sendable {
        /// Video or audio.
        public var mediaType: MediaType
        /// The codec of the packets.
        public var codec: MediaCodec
        /// Out-of-band configuration: avcC for H.264, AudioSpecificConfig for AAC (may be empty).
        public var extradata: [UInt8]
        /// Video size (ignored for audio).
        public var width: Int, height: Int
        /// Nominal frame rate, used as a hint by some containers (0 when unknown).
        public var frameRate: Double
        /// Audio sample rate and channels (ignored for video).
        public var sampleRate: Int, channels: Int
        /// Average bitrate in bits per second, written where the container records it (0 when unknown).
        public var bitRate: Int

        /// Describes a video track.
        public static func video(
            _ codec: MediaCodec = .h264, width: Int, height: Int, frameRate: Double,
            extradata: [UInt8], bitRate: Int = 0
        ) -> Track {
            Track(
                mediaType: .video, codec: codec, extradata: extradata, width: width, height: height,
                frameRate: frameRate, sampleRate: 0, channels: 0, bitRate: bitRate)
        }

        /// Describes an audio track.
        public static func audio(
            _ codec: MediaCodec = .aac, sampleRate: Int, channels: Int,
            extradata: [UInt8], bitRate: Int = 0
        ) -> Track {
            Track(
                mediaType: .audio, codec: codec, extradata: extradata, width: 0, height: 0,
                frameRate: 0, sampleRate: sampleRate, channels: channels, bitRate: bitRate)
        }
    }

    /// How an output that is a network connection is opened and written: packets go straight to
    /// the socket (`av_write_frame`, no interleaving buffer) and every blocking call is bounded.
    public struct Connection: Sendable {
        /// Protocol options (e.g. `tcp_nodelay=1`, `rw_timeout`); each must be one the protocol knows.
        public var protocolOptions: [String: String]
        /// Interrupts blocking calls; the caller arms it before opening, writing and finishing.
        public var deadline: NetworkDeadline

        /// OnAir's own transport under the muxer instead of an FFmpeg protocol (the destination
        /// is then only a name for messages, and `protocolOptions` are unused).
        public var output: PacketOutput?

        /// Describes a connection with its protocol options and deadline.
        public init(protocolOptions: [String: String] = [:], deadline: NetworkDeadline, output: PacketOutput? = nil) {
            self.protocolOptions = protocolOptions
            self.deadline = deadline
            self.output = output
        }
    }

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let interleaved: Bool
    private let packet: UnsafeMutablePointer<AVPacket>
    private var streamTimeBases: [AVRational] = []
    private var finished = false
    private let memoryOutput: MemoryOutput?
    /// Set when the muxer writes into a `PacketOutput` (kept alive here; its context freed here).
    private var packetOutput: PacketOutput?
    /// Opens and closes the files of a muxer writing files (not memory or a connection).
    private var files: MuxerFileIO?
    /// Packets handed to the muxer so far (the moment for `WriteFaults`).
    private var packetCount = 0
    /// The libavformat muxer in use ("mp4", "mpegts", "flv", …).
    public let formatName: String
    /// Where the output goes (a path or a URL).
    public let destination: String

    /// Opens `destination` for writing with the given tracks and writes the container header.
    ///
    /// - Parameters:
    ///   - format: a libavformat muxer name; nil guesses it from the destination's extension.
    ///   - options: muxer options (e.g. `movflags=frag_keyframe+empty_moov`) and protocol options.
    ///   - interleaved: order packets of all streams by time before writing (files); false writes
    ///     each packet at once, for live outputs where waiting for the other stream adds delay.
    ///   - connection: for network outputs: protocol options, a deadline, and no interleaving buffer.
    ///   - output: write into memory instead of opening `destination` (then only a label).
    public init(
        destination: String, format: String? = nil, tracks: [Track], options: [String: String] = [:],
        interleaved: Bool = true, connection: Connection? = nil, output: MemoryOutput? = nil
    ) throws {
        self.destination = destination
        self.memoryOutput = output
        self.interleaved = interleaved && connection == nil
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try check(
            avformat_alloc_output_context2(&ctx, nil, format, destination),
            "choose a muxer for \(destination)")
        guard let ctx, let pkt = av_packet_alloc() else {
            throw FFmpegError(code: onair_averror(12), operation: "allocate muxer for \(destination)")
        }
        context = ctx
        packet = pkt
        formatName = String(cString: ctx.pointee.oformat.pointee.name)
        do {
            for track in tracks { try addStream(track) }
            if let output {
                ctx.pointee.pb = output.context
                ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO  // the output is not the muxer's to close
            } else if let output = connection?.output {
                guard let io = output.makeContext() else {
                    throw FFmpegError(code: onair_averror(12), operation: "allocate the output of \(destination)")
                }
                ctx.pointee.pb = io
                ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
                packetOutput = output
            } else if let connection, (ctx.pointee.oformat.pointee.flags & onair_fmt_nofile()) != 0 {
                // A muxer that opens its own connection (RTSP's ANNOUNCE/RECORD): the deadline still bounds it.
                ctx.pointee.interrupt_callback = connection.deadline.callback
            } else if let connection {
                try Self.connect(ctx, destination: destination, connection: connection)
            } else {
                // Files: every one the muxer writes goes through `files`, so each close is checked.
                let files = MuxerFileIO(context: ctx, destination: destination)
                self.files = files
                if (ctx.pointee.oformat.pointee.flags & onair_fmt_nofile()) == 0 { try files.openOutput(ctx) }
                files.enter(.header)
            }
            var dictionary: OpaquePointer?
            for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
            defer { av_dict_free(&dictionary) }
            try check(avformat_write_header(ctx, &dictionary), "write the \(formatName) header to \(destination)")
            try checkOutput("write the \(formatName) header to \(destination)")
            output?.markHeader()
            if let unused = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
                throw FFmpegError(
                    code: onair_averror(22),
                    operation: "\(formatName) option '\(String(cString: unused.pointee.key))' not recognised")
            }
            for index in 0..<Int(ctx.pointee.nb_streams) {
                streamTimeBases.append(ctx.pointee.streams[index]!.pointee.time_base)
            }
        } catch {
            closeWithoutTrailer()
            throw error
        }
    }

    /// Opens the network connection with the deadline as interrupt callback; a failure carries
    /// what the protocol logged (e.g. why an SRT peer refused) besides FFmpeg's message for the code.
    private static func connect(
        _ ctx: UnsafeMutablePointer<AVFormatContext>, destination: String,
        connection: Connection
    ) throws {
        ctx.pointee.interrupt_callback = connection.deadline.callback
        var callback = connection.deadline.callback
        var dictionary: OpaquePointer?
        for (key, value) in connection.protocolOptions { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        let (status, lines) = FFmpegLogCapture.capturing(maximumLevel: AV_LOG_ERROR) {
            avio_open2(&ctx.pointee.pb, destination, AVIO_FLAG_WRITE, &callback, &dictionary)
        }
        if status < 0 {
            // Every line: the first usually names the cause ("Peer certificate failed verification"),
            // the last what failed ("Cannot open connection tls://…").
            let detail = lines.isEmpty ? "" : " (\(lines.joined(separator: "; ")))"
            throw FFmpegError(code: status, operation: "connect to \(destination)\(detail)")
        }
        if let unused = av_dict_get(dictionary, "", nil, AV_DICT_IGNORE_SUFFIX) {
            throw FFmpegError(
                code: onair_averror(22),
                operation: "protocol option '\(String(cString: unused.pointee.key))' of \(destination) not recognised")
        }
    }

    deinit {
        if !finished { try? finish() }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
    }

    private func addStream(_ track: Track) throws {
        guard let context, let stream = avformat_new_stream(context, nil), let par = stream.pointee.codecpar else {
            throw FFmpegError(code: onair_averror(12), operation: "add a stream to \(destination)")
        }
        par.pointee.codec_type = track.mediaType == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO
        switch track.codec {
        case .h264: par.pointee.codec_id = AV_CODEC_ID_H264
        case .aac: par.pointee.codec_id = AV_CODEC_ID_AAC
        case .opus: par.pointee.codec_id = AV_CODEC_ID_OPUS
        }
        par.pointee.bit_rate = Int64(track.bitRate)
        if track.mediaType == .video {
            par.pointee.width = Int32(track.width)
            par.pointee.height = Int32(track.height)
            par.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            if track.frameRate > 0 {
                let rate = av_d2q(track.frameRate, 1_000_000)
                stream.pointee.avg_frame_rate = rate
                stream.pointee.r_frame_rate = rate
            }
            stream.pointee.time_base = AVRational(num: 1, den: 90_000)
        } else {
            par.pointee.sample_rate = Int32(track.sampleRate)
            onair_default_channel_layout(&par.pointee.ch_layout, Int32(track.channels))
            par.pointee.frame_size = track.codec == .opus ? 960 : 1024
            stream.pointee.time_base = AVRational(num: 1, den: Int32(track.sampleRate))
        }
        if !track.extradata.isEmpty {
            let size = track.extradata.count
            guard let buffer = av_mallocz(size + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
                throw FFmpegError(code: onair_averror(12), operation: "allocate extradata")
            }
            buffer.update(from: track.extradata, count: size)
            par.pointee.extradata = buffer
            par.pointee.extradata_size = Int32(size)
        }
    }

    /// Writes one packet of stream `track` (the index in the `tracks` passed to `init`); the bytes
    /// are copied once into the muxer's packet.
    public func write(
        track: Int, data: [UInt8], pts: MediaTime, dts: MediaTime, duration: MediaTime,
        isKeyframe: Bool
    ) throws {
        try write(
            track: track, payload: MediaBuffer(bytes: data), pts: pts, dts: dts, duration: duration,
            isKeyframe: isKeyframe)
    }

    /// Writes one packet of stream `track`. A payload at a stable address with libavcodec's padding
    /// (an encoder's packet buffer, a pooled block) is lent to the muxer without a copy: the muxer
    /// holds a reference until it has written the packet.
    public func write(
        track: Int, payload: MediaBuffer, pts: MediaTime, dts: MediaTime, duration: MediaTime,
        isKeyframe: Bool
    ) throws {
        guard let context, !finished else {
            throw FFmpegError(code: onair_averror(22), operation: "write to \(destination) after finish")
        }
        guard track >= 0, track < streamTimeBases.count else {
            throw FFmpegError(code: onair_averror(22), operation: "write to track \(track) of \(destination)")
        }
        defer { av_packet_unref(packet) }
        if payload.padding >= Int(AV_INPUT_BUFFER_PADDING_SIZE), payload.count > 0,
            let reference = MediaBufferReference.make(payload)
        {
            packet.pointee.buf = reference
            packet.pointee.data = reference.pointee.data
            packet.pointee.size = Int32(payload.count)
        } else {
            try check(av_new_packet(packet, Int32(payload.count)), "allocate a packet")
            payload.withUnsafeBytes { source in
                if let base = source.baseAddress {
                    packet.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: payload.count)
                }
            }
        }
        let timeBase = streamTimeBases[track]
        packet.pointee.stream_index = Int32(track)
        packet.pointee.pts = Self.rescale(pts, to: timeBase)
        packet.pointee.dts = Self.rescale(dts, to: timeBase)
        packet.pointee.duration = Self.rescale(duration, to: timeBase)
        packet.pointee.flags = isKeyframe ? onair_pkt_flag_key() : 0
        files?.enter(.packet(packetCount))
        packetCount += 1
        if interleaved {
            try check(av_interleaved_write_frame(context, packet), "write a packet to \(destination)")
            try checkOutput("write a packet to \(destination)")
        } else {
            try check(av_write_frame(context, packet), "send a packet to \(destination)")
            try checkOutput("send a packet to \(destination)")
        }
    }

    /// Throws the write error the output's context keeps (libavformat returns it from some calls
    /// only), or the first failed close of a file the muxer opened itself (an HLS segment).
    private func checkOutput(_ operation: @autoclosure () -> String) throws {
        if let pb = context?.pointee.pb, pb.pointee.error < 0 {
            throw FFmpegError(code: pb.pointee.error, operation: operation())
        }
        if let failure = files?.failure { throw failure }
    }

    /// Writes out what the muxer holds back: an MP4 fragment is closed at once (one fragment per
    /// packet when called after each one), MPEG-TS sends its partly filled PES.
    public func flush() throws {
        guard let context, !finished else { return }
        try check(av_write_frame(context, nil), "flush \(destination)")
        try checkOutput("flush \(destination)")
    }

    /// Flushes interleaved packets, writes the trailer and closes the output. Every write of that
    /// is checked: `av_write_trailer` returns a muxer's positive byte count (MP4's `mfra`, the
    /// `moov` of a faststart file) rather than the write error its context kept, and that error
    /// may come out only when the output is closed.
    public func finish() throws {
        guard !finished, let context else { return }
        finished = true
        files?.enter(.trailer)
        var status = av_write_trailer(context)
        if status >= 0, let pb = context.pointee.pb {
            avio_flush(pb)
            if pb.pointee.error < 0 { status = pb.pointee.error }
        }
        let trailerFailure = status < 0 ? FFmpegError(code: status, operation: "finish \(destination)") : nil
        let segmentFailure = files?.failure
        files?.enter(.close)
        let closed = closeWithoutTrailer()
        if let failure = trailerFailure ?? segmentFailure ?? files?.failure { throw failure }
        try check(closed, "close \(destination)")
    }

    /// Closes an output whose connection already failed, without writing a trailer to it.
    public func abandon() {
        finished = true
        closeWithoutTrailer()
    }

    /// Frees the muxer and closes its output; returns the close's result (a write error the output
    /// kept, or the close's own).
    @discardableResult
    private func closeWithoutTrailer() -> Int32 {
        guard let context else { return 0 }
        var status: Int32 = 0
        if let packetOutput, let io = context.pointee.pb {
            context.pointee.pb = nil
            packetOutput.release(io)
        } else if let files {
            status = files.closeOutput(context)
        } else if memoryOutput == nil, (context.pointee.oformat.pointee.flags & onair_fmt_nofile()) == 0 {
            status = avio_closep(&context.pointee.pb)
        }
        avformat_free_context(context)
        self.context = nil
        return status
    }

    private static func rescale(_ time: MediaTime, to timeBase: AVRational) -> Int64 {
        av_rescale_q_rnd(
            time.value, AVRational(num: 1, den: time.timescale), timeBase,
            AVRounding(rawValue: AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue))
    }
}
