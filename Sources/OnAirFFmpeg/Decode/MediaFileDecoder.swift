import CFFmpeg
import OnAirBitstream
import OnAirCore

/// Decodes the first video and first audio stream of any file FFmpeg reads into `VideoFrame`s
/// and `PCMBuffer`s, in file order, with the file's timestamps.
///
/// Video comes out in yuv420p (or the requested size and format, converted with swscale);
/// audio in the decoder's own sample layout when it is s16/s32/f32, else converted to f32.
/// Use it from one thread at a time.
///
/// No copies: a picture or sample run already in the requested form is handed out in the buffers
/// libavcodec decoded it into (the frames hold a reference to them until their last holder lets
/// go); a converted picture is written by swscale straight into a frame from a `VideoFramePool`.
public final class MediaFileDecoder {
    /// One decoded item.
    public enum Output: Sendable {
        case video(VideoFrame)
        case audio(PCMBuffer)
    }

    /// The size and pixel format video frames are delivered in (a width or height of 0: each
    /// frame's own size).
    public struct VideoOutput: Sendable, Equatable {
        public var width: Int, height: Int
        public var pixelFormat: VideoPixelFormat
        /// Creates an output description.
        public init(width: Int, height: Int, pixelFormat: VideoPixelFormat = .yuv420p) {
            self.width = width
            self.height = height
            self.pixelFormat = pixelFormat
        }
    }

    private let reader: MediaFileReader
    private var video: StreamDecoder?
    private var audio: StreamDecoder?
    private var ready: [Output] = []
    private var drained = false
    /// The video stream being decoded, if any.
    public let videoStream: MediaFileReader.Stream?
    /// The audio stream being decoded, if any.
    public let audioStream: MediaFileReader.Stream?
    /// The size and format video frames come out in.
    public let videoOutput: VideoOutput?
    /// Called with every packet read, of any stream, before it is decoded (for byte counts or remuxing).
    public var packetHandler: ((MediaFileReader.Packet) throws -> Void)?
    /// Packets the decoders rejected as invalid plus frames they flagged as damaged or concealed.
    public var decodeErrors: Int { (video?.errors ?? 0) + (audio?.errors ?? 0) }
    /// Packets the demuxer marked as corrupt (data lost or damaged before decoding).
    public private(set) var damagedPackets = 0
    /// When set, video packets before the first keyframe are not decoded but counted in
    /// `packetsBeforeKeyFrame`: a receiver joining a live stream mid-GOP cannot decode them, and
    /// they are not decode errors.
    public var waitsForVideoKeyFrame = false
    /// Video packets skipped while waiting for the first keyframe.
    public private(set) var packetsBeforeKeyFrame = 0
    private var sawVideoKeyFrame = false
    /// Whether timestamp jumps are joined into one continuous timeline (see `TimelineJoiner`):
    /// every packet's timestamps, and so every frame's, are moved onto it; a stream of another
    /// program that takes over from a silent one is followed (see `StreamTakeover`). Set before
    /// the first `next()`.
    public var joinsTimestampJumps = false
    /// Jumps in the timestamps joined so far (each began a new segment of the timeline).
    public var timestampJumps: Int { joiner.jumps }
    /// Damage marks on the last packet of a track before a jump, not counted as damage (see `process`).
    public private(set) var damageMarksAtJumps = 0
    private var joiner = TimelineJoiner<MediaFileReader.Packet>()
    private var takeovers = [StreamTakeover(), StreamTakeover()]
    private let lowDelay: Bool
    private let hardwareChoice: HardwareDecoding
    /// Times a stream of another program took over from the one decoded (see `StreamTakeover`;
    /// only with `joinsTimestampJumps`).
    public private(set) var streamsTakenOver = 0
    /// Per track, damage marks not judged yet: packets of the track left before each counts.
    private var corruptAwaitingVerdict: [Int: [Int]] = [:]
    private static let markWindow = 2
    /// Whether the video packet decoded last was read while the input was probed (see
    /// `MediaFileReader.Packet.readWhileProbing`).
    public private(set) var lastVideoPacketReadWhileProbing: Bool?
    /// Whether the video decoder runs on hardware, and what was tried.
    public var videoHardware: HardwareDecodingOutcome? { video?.hardware }
    /// The libavcodec decoders in use ("h264", "aac", …), video first.
    public var decoderNames: [String] { [video?.decoderName, audio?.decoderName].compactMap { $0 } }

    /// Opens `path`; `decodeVideo`/`decodeAudio` pick the streams, `videoOutput` the frame size and format.
    /// `format` and `options` open a capture device or force a demuxer, `interrupt` lets another
    /// thread end a blocking open or read (see `MediaFileReader`).
    /// `lowDelay` asks the decoders to output each frame as soon as possible (live input), and
    /// `nonBlocking` is passed on to `MediaFileReader`; `hardware` picks a hardware video decoder
    /// (software when none opens, unless one type was demanded).
    public init(
        path: String, format: String? = nil, options: [String: String] = [:],
        decodeVideo: Bool = true, decodeAudio: Bool = true,
        videoOutput requested: VideoOutput? = nil, interrupt: CaptureInterrupt? = nil,
        nonBlocking: Bool = true, lowDelay: Bool = false, hardware: HardwareDecoding = .none
    ) throws {
        reader = try MediaFileReader(
            path: path, format: format, options: options, interrupt: interrupt,
            nonBlocking: nonBlocking)
        let videoStream = decodeVideo ? reader.streams.first { $0.mediaType == .video } : nil
        let audioStream = decodeAudio ? reader.streams.first { $0.mediaType == .audio } : nil
        self.videoStream = videoStream
        self.audioStream = audioStream
        self.lowDelay = lowDelay
        hardwareChoice = hardware
        if let videoStream {
            let output = requested ?? VideoOutput(width: videoStream.width, height: videoStream.height)
            videoOutput = output
            video = try StreamDecoder(
                reader: reader, stream: videoStream, videoOutput: output, lowDelay: lowDelay,
                hardware: hardware)
        } else {
            videoOutput = nil
        }
        if let audioStream {
            audio = try StreamDecoder(reader: reader, stream: audioStream, videoOutput: nil, lowDelay: lowDelay)
        }
    }

    /// Whether an unflagged video packet is an H.264 IDR access unit in Annex-B form. The MPEG-TS
    /// demuxer flags keyframes only through its parser, which live playback leaves out, so the
    /// packet itself is looked at. (FLV and MP4 flag keyframes in the container.)
    static func startsDecoding(_ data: [UInt8]) -> Bool {
        guard data.count > 4, data[0] == 0, data[1] == 0, data[2] == 1 || (data[2] == 0 && data[3] == 1) else { return false }
        return AnnexB.nalUnitRanges(in: data).contains { data[$0.lowerBound] & 0x1F == H264NALUnitType.idr.rawValue }
    }

    /// The codec parameters of stream `index`, valid while the decoder lives (for remuxing).
    func codecParameters(of index: Int) -> UnsafePointer<AVCodecParameters>? {
        reader.codecParameters(of: index)
    }

    /// The next decoded frame or audio buffer, or nil when the file is exhausted and decoders drained.
    public func next() throws -> Output? {
        while ready.isEmpty {
            if drained { return nil }
            guard let packet = try reader.nextPacket() else {
                for output in joiner.flush() { try process(output) }
                // A packet marked damaged that no join explained.
                damagedPackets += corruptAwaitingVerdict.values.map(\.count).reduce(0, +)
                corruptAwaitingVerdict.removeAll()
                drained = true
                if let video { ready += try video.decode(nil) }
                if let audio { ready += try audio.decode(nil) }
                continue
            }
            let track = track(of: packet.streamIndex)
            if let track, joinsTimestampJumps {
                takeovers[track].currentDelivered()
            } else if track == nil, joinsTimestampJumps, let held = try takeOver(by: packet) {
                for taken in held {
                    let track = self.track(of: taken.streamIndex) ?? -1
                    for output in joiner.push(taken, track: track, pts: taken.pts, dts: taken.dts, duration: taken.duration) {
                        try process(output)
                    }
                }
                continue
            }
            guard let track, joinsTimestampJumps else {
                if packet.isCorrupt { damagedPackets += 1 }
                try process(TimelineJoiner.Output(item: packet, track: track ?? -1, offset: 0))
                continue
            }
            for output in joiner.push(packet, track: track, pts: packet.pts, dts: packet.dts, duration: packet.duration) {
                try process(output)
            }
        }
        return ready.removeFirst()
    }

    private static let videoTrack = 0, audioTrack = 1

    /// Offers a packet of a stream not decoded to the takeover of its kind; when that stream takes
    /// over, the decoder of its kind is drained and replaced, and the held packets are returned.
    private func takeOver(by packet: MediaFileReader.Packet) throws -> [MediaFileReader.Packet]? {
        let kind = reader.mediaType(ofStream: packet.streamIndex)
        guard (kind == .video && video != nil) || (kind == .audio && audio != nil) else { return nil }
        let track = kind == .video ? Self.videoTrack : Self.audioTrack
        guard let held = takeovers[track].offer(packet, isVideo: kind == .video),
            let stream = reader.describeStream(packet.streamIndex)
        else { return nil }
        if kind == .video {
            if let video { ready += try video.decode(nil) }
            video = try StreamDecoder(
                reader: reader, stream: stream, videoOutput: videoOutput, lowDelay: lowDelay,
                hardware: hardwareChoice)
        } else {
            if let audio { ready += try audio.decode(nil) }
            audio = try StreamDecoder(reader: reader, stream: stream, videoOutput: nil, lowDelay: lowDelay)
        }
        streamsTakenOver += 1
        return held
    }

    private func track(of streamIndex: Int) -> Int? {
        if let video, streamIndex == video.streamIndex { return Self.videoTrack }
        if let audio, streamIndex == audio.streamIndex { return Self.audioTrack }
        return nil
    }

    /// Passes one packet (its timestamps moved onto the joined timeline) to `packetHandler` and
    /// its decoder.
    private func process(_ output: TimelineJoiner<MediaFileReader.Packet>.Output) throws {
        var packet = output.item
        if output.offset != 0 {
            packet.pts = packet.pts.map { $0 + output.offset }
            packet.dts = packet.dts.map { $0 + output.offset }
        }
        if joinsTimestampJumps, output.track >= 0 {
            // At a join of two MPEG-TS recordings the demuxer marks the last packet before it
            // damaged: the continuity counter starts again in the joined part (the parser puts
            // the mark one frame early). That packet is whole; only a mark that no jump of its
            // track follows within `markWindow` packets is damage.
            var marks = corruptAwaitingVerdict[output.track] ?? []
            if output.startsSegment {
                damageMarksAtJumps += marks.count
                marks.removeAll()
            } else {
                marks = marks.map { $0 - 1 }
                damagedPackets += marks.filter { $0 <= 0 }.count
                marks.removeAll { $0 <= 0 }
            }
            if packet.isCorrupt { marks.append(Self.markWindow) }
            corruptAwaitingVerdict[output.track] = marks.isEmpty ? nil : marks
        }
        // A live input joined mid-GOP: nothing is decoded (or copied) before the first keyframe.
        if output.track == Self.videoTrack, waitsForVideoKeyFrame, !sawVideoKeyFrame {
            if packet.isKeyframe || Self.startsDecoding(packet.data) {
                sawVideoKeyFrame = true
            } else {
                packet.isBeforeFirstKeyFrame = true
            }
        }
        // A stream that took over is handed on as the one it replaced (a copy keeps one stream).
        var handed = packet
        if output.track == Self.videoTrack, let index = videoStream?.index { handed.streamIndex = index }
        if output.track == Self.audioTrack, let index = audioStream?.index { handed.streamIndex = index }
        // The last packets of a stream replaced by another go to no copy (their time is past).
        if output.track < 0, streamsTakenOver > 0, handed.streamIndex == videoStream?.index || handed.streamIndex == audioStream?.index {
            handed.streamIndex = -1
        }
        try packetHandler?(handed)
        if let video, output.track == Self.videoTrack {
            if packet.isBeforeFirstKeyFrame {
                packetsBeforeKeyFrame += 1
                return
            }
            lastVideoPacketReadWhileProbing = packet.readWhileProbing
            ready += try video.decode(packet)
        } else if let audio, output.track == Self.audioTrack {
            ready += try audio.decode(packet)
        }
    }
}

/// One libavcodec decoder plus the conversion of its frames into OnAir's types.
private final class StreamDecoder {
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

extension MediaFileDecoder {
    /// Copies side data onto `packet` (shared with the remuxer).
    static func attach(_ sideData: [MediaFileReader.SideData], to packet: UnsafeMutablePointer<AVPacket>) throws {
        for item in sideData {
            guard let target = av_packet_new_side_data(packet, AVPacketSideDataType(rawValue: item.type), item.data.count) else {
                throw FFmpegError(code: onair_averror(12), operation: "attach packet side data")
            }
            item.data.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { target.update(from: base, count: item.data.count) }
            }
        }
    }
}
