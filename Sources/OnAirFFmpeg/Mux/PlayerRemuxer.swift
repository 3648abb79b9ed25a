#if os(Linux)
import CFFmpeg
import OnAirBitstream
import OnAirCore

/// Copies the compressed video and audio packets a `MediaFileDecoder` reads into a new container
/// (MP4, MOV, MPEG-TS, Matroska) without decoding them again: `onair play -o out.mp4`.
///
/// The output's streams take the input streams' codec parameters; libavformat inserts the
/// bitstream filters a container needs (ADTS to raw AAC for MP4). Video starts at its first
/// keyframe; the header is written then, so a live input joined before its first keyframe (its
/// probe saw no picture size) takes size and parameter sets from that keyframe's SPS and PPS.
/// Use it from the thread that reads the packets.
package final class PlayerRemuxer {
    /// Where the copy goes.
    package let destination: String
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    /// Input stream index → (output stream index, output time base).
    private var mapping: [Int: (index: Int32, timeBase: AVRational)] = [:]
    private let videoInput: Int?
    /// Whether the video is H.265 (for telling its keyframes).
    private let videoIsHEVC: Bool
    private var videoStarted = false
    private var headerWritten = false
    private var finished = false
    /// Opens and closes the copy's files, so every close is checked (and `WriteFaults` can fail them).
    private var files: MuxerFileIO?
    /// Packets handed to the muxer so far (the moment for `WriteFaults`).
    private var packetCount = 0

    /// Creates `destination` with the muxer `format` and one stream for each of the decoder's
    /// video and audio streams; the header follows with the first packet written.
    package init(destination: String, format: String, decoder: MediaFileDecoder) throws {
        self.destination = destination
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&ctx, nil, format, destination), "choose a muxer for \(destination)")
        guard let ctx, let pkt = av_packet_alloc() else {
            throw FFmpegError(code: onair_averror(12), operation: "allocate a muxer for \(destination)")
        }
        context = ctx
        packet = pkt
        videoInput = decoder.videoStream?.index
        videoIsHEVC = decoder.videoIsHEVC
        do {
            for stream in [decoder.videoStream, decoder.audioStream].compactMap({ $0 }) {
                guard let parameters = decoder.codecParameters(of: stream.index),
                    let output = avformat_new_stream(ctx, nil)
                else {
                    throw FFmpegError(code: onair_averror(12), operation: "add a stream to \(destination)")
                }
                try check(avcodec_parameters_copy(output.pointee.codecpar, parameters), "copy the \(stream.codecName) parameters")
                // The input container's codec tag means nothing in another container.
                output.pointee.codecpar.pointee.codec_tag = 0
                output.pointee.time_base = AVRational(num: Int32(stream.timeBase.value), den: stream.timeBase.timescale)
                mapping[stream.index] = (output.pointee.index, output.pointee.time_base)
            }
            let files = MuxerFileIO(context: ctx, destination: destination)
            self.files = files
            if (ctx.pointee.oformat.pointee.flags & onair_fmt_nofile()) == 0 { try files.openOutput(ctx) }
        } catch {
            // `deinit` still runs and frees the packet.
            close()
            throw error
        }
    }

    /// Closes the output and frees the muxer; returns the close's result (a write error the output
    /// kept, or the close's own).
    @discardableResult
    private func close() -> Int32 {
        guard let context else { return 0 }
        files?.enter(.close)
        let status = files?.closeOutput(context) ?? 0
        avformat_free_context(context)
        self.context = nil
        return status
    }

    /// Throws the write error the output keeps, or a failed close of a file the muxer opened.
    private func checkOutput(_ operation: @autoclosure () -> String) throws {
        if let pb = context?.pointee.pb, pb.pointee.error < 0 {
            throw FFmpegError(code: pb.pointee.error, operation: operation())
        }
        if let failure = files?.failure { throw failure }
    }

    /// Writes the header once the video's first keyframe is at hand: a picture size and parameter
    /// sets the input's probe did not find are taken from it.
    private func writeHeader(keyframe: [UInt8]?) throws {
        guard let context else { return }
        if let keyframe, let videoInput, let output = mapping[videoInput],
            let parameters = context.pointee.streams[Int(output.index)]?.pointee.codecpar
        {
            let units = AnnexB.split(keyframe)
            if parameters.pointee.width == 0 || parameters.pointee.height == 0,
                let sps = units.first(where: { $0.type == .sps }).flatMap({ try? H264SPS($0) })
            {
                parameters.pointee.width = Int32(sps.width)
                parameters.pointee.height = Int32(sps.height)
            }
            let parameterSets = units.filter { $0.type == .sps || $0.type == .pps }
            if parameters.pointee.extradata_size == 0, !parameterSets.isEmpty {
                let bytes = AnnexB.join(parameterSets)
                guard let extradata = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self)
                else {
                    throw FFmpegError(code: onair_averror(12), operation: "allocate the parameter sets of \(destination)")
                }
                extradata.update(from: bytes, count: bytes.count)
                parameters.pointee.extradata = extradata
                parameters.pointee.extradata_size = Int32(bytes.count)
            }
        }
        files?.enter(.header)
        try check(avformat_write_header(context, nil), "write the header of \(destination)")
        try checkOutput("write the header of \(destination)")
        headerWritten = true
        for (input, entry) in mapping {
            mapping[input] = (entry.index, context.pointee.streams[Int(entry.index)]!.pointee.time_base)
        }
    }

    deinit {
        if !finished { try? finish() }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packetPointer)
    }

    /// Writes one packet read from the input; packets of other streams, and video before the
    /// first keyframe, are skipped.
    package func write(_ input: MediaFileReader.Packet) throws {
        guard let context, !finished, mapping[input.streamIndex] != nil else { return }
        // Live MPEG-TS read without a parser carries no keyframe flags: the packet itself tells.
        let isKeyframe =
            input.isKeyframe || (input.streamIndex == videoInput && MediaFileDecoder.startsDecoding(input.data, hevc: videoIsHEVC))
        if input.streamIndex == videoInput {
            if !videoStarted && !isKeyframe { return }
            videoStarted = true
        } else if videoInput != nil && !videoStarted {
            return  // audio waits for the picture so the copy starts in sync
        }
        if !headerWritten { try writeHeader(keyframe: input.streamIndex == videoInput ? input.data : nil) }
        guard let target = mapping[input.streamIndex] else { return }
        try check(av_new_packet(packet, Int32(input.data.count)), "allocate a packet")
        defer { av_packet_unref(packet) }
        input.data.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { packet.pointee.data.update(from: base, count: input.data.count) }
        }
        let ticks = { (seconds: Double?) -> Int64 in
            guard let seconds else { return onair_nopts_value() }
            return Int64((seconds * Double(target.timeBase.den) / Double(target.timeBase.num)).rounded())
        }
        packet.pointee.stream_index = target.index
        packet.pointee.pts = ticks(input.pts)
        packet.pointee.dts = ticks(input.dts)
        packet.pointee.duration = ticks(input.duration)
        packet.pointee.flags = isKeyframe ? onair_pkt_flag_key() : 0
        // New extradata travels with the copy, for muxers that record a mid-stream change.
        try MediaFileDecoder.attach(input.sideData, to: packet)
        files?.enter(.packet(packetCount))
        packetCount += 1
        try check(av_interleaved_write_frame(context, packet), "write a packet to \(destination)")
        try checkOutput("write a packet to \(destination)")
    }

    /// Writes the trailer and closes the output; every write of that is checked, as in
    /// `ContainerWriter.finish` (a trailer's positive return hides the error its output kept).
    package func finish() throws {
        guard !finished, let context else { return }
        finished = true
        if !headerWritten {
            // Nothing arrived: an empty but well-formed file, when the muxer can make one.
            do { try writeHeader(keyframe: nil) } catch {
                close()
                throw error
            }
        }
        files?.enter(.trailer)
        var status = av_write_trailer(context)
        if status >= 0, let pb = context.pointee.pb {
            avio_flush(pb)
            if pb.pointee.error < 0 { status = pb.pointee.error }
        }
        let failure = status < 0 ? FFmpegError(code: status, operation: "finish \(destination)") : files?.failure
        let closed = close()
        if let failure = failure ?? files?.failure { throw failure }
        try check(closed, "close \(destination)")
    }
}
#endif
