#if os(Linux)
import CFFmpeg
import OnAirCore

/// Writes compressed H.264 and AAC into a container (MP4, MOV, MPEG-TS, FLV, …) with libavformat.
///
/// The caller hands over packets already in the container's bitstream form (AVCC for MP4/MOV/FLV,
/// Annex-B for MPEG-TS) with timestamps from the capture clock; the writer rescales them to the
/// container's time base. Use it from one thread at a time; `finish()` writes the trailer.
package final class ContainerWriter {
    /// The muxer (nil once closed).
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
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
    package let formatName: String
    /// Where the output goes (a path or a URL).
    package let destination: String

    /// Opens `destination` for writing with the given tracks and writes the container header.
    ///
    /// - Parameters:
    ///   - format: a libavformat muxer name; nil guesses it from the destination's extension.
    ///   - options: muxer options (e.g. `movflags=frag_keyframe+empty_moov`) and protocol options.
    ///   - interleaved: order packets of all streams by time before writing (files); false writes
    ///     each packet at once, for live outputs where waiting for the other stream adds delay.
    ///   - connection: for network outputs: protocol options, a deadline, and no interleaving buffer.
    ///   - output: write into memory instead of opening `destination` (then only a label).
    package init(
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

    deinit {
        if !finished { try? finish() }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
    }

    /// Writes one packet of stream `track` (the index in the `tracks` passed to `init`); the bytes
    /// are copied once into the muxer's packet.
    package func write(
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
    package func write(
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
    package func flush() throws {
        guard let context, !finished else { return }
        try check(av_write_frame(context, nil), "flush \(destination)")
        try checkOutput("flush \(destination)")
    }

    /// Flushes interleaved packets, writes the trailer and closes the output. Every write of that
    /// is checked: `av_write_trailer` returns a muxer's positive byte count (MP4's `mfra`, the
    /// `moov` of a faststart file) rather than the write error its context kept, and that error
    /// may come out only when the output is closed.
    package func finish() throws {
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
    package func abandon() {
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
#endif
