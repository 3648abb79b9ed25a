#if os(Linux)
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
package final class MediaFileDecoder {
    /// One decoded item.
    package enum Output: Sendable {
        case video(VideoFrame)
        case audio(PCMBuffer)
    }

    /// The size and pixel format video frames are delivered in (a width or height of 0: each
    /// frame's own size).
    package struct VideoOutput: Sendable, Equatable {
        package var width: Int, height: Int
        /// The pixel format frames come out in.
        package var pixelFormat: VideoPixelFormat
        /// Creates an output description.
        package init(width: Int, height: Int, pixelFormat: VideoPixelFormat = .yuv420p) {
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
    package let videoStream: MediaFileReader.Stream?
    /// The audio stream being decoded, if any.
    package let audioStream: MediaFileReader.Stream?
    /// The size and format video frames come out in.
    package let videoOutput: VideoOutput?
    /// Called with every packet read, of any stream, before it is decoded (for byte counts or remuxing).
    package var packetHandler: ((MediaFileReader.Packet) throws -> Void)?
    /// Packets the decoders rejected as invalid plus frames they flagged as damaged or concealed.
    package var decodeErrors: Int { (video?.errors ?? 0) + (audio?.errors ?? 0) }
    /// Packets the demuxer marked as corrupt (data lost or damaged before decoding).
    package private(set) var damagedPackets = 0
    /// When set, video packets before the first keyframe are not decoded but counted in
    /// `packetsBeforeKeyFrame`: a receiver joining a live stream mid-GOP cannot decode them, and
    /// they are not decode errors.
    package var waitsForVideoKeyFrame = false
    /// Video packets skipped while waiting for the first keyframe.
    package private(set) var packetsBeforeKeyFrame = 0
    private var sawVideoKeyFrame = false
    /// Whether timestamp jumps are joined into one continuous timeline (see `TimelineJoiner`):
    /// every packet's timestamps, and so every frame's, are moved onto it; a stream of another
    /// program that takes over from a silent one is followed (see `StreamTakeover`). Set before
    /// the first `next()`.
    package var joinsTimestampJumps = false
    /// Jumps in the timestamps joined so far (each began a new segment of the timeline).
    package var timestampJumps: Int { joiner.jumps }
    /// Damage marks on the last packet of a track before a jump, not counted as damage (see `process`).
    package private(set) var damageMarksAtJumps = 0
    private var joiner = TimelineJoiner<MediaFileReader.Packet>()
    private var takeovers = [StreamTakeover(), StreamTakeover()]
    private let lowDelay: Bool
    private let hardwareChoice: HardwareDecoding
    /// Times a stream of another program took over from the one decoded (see `StreamTakeover`;
    /// only with `joinsTimestampJumps`).
    package private(set) var streamsTakenOver = 0
    /// Per track, damage marks not judged yet: packets of the track left before each counts.
    private var corruptAwaitingVerdict: [Int: [Int]] = [:]
    private static let markWindow = 2
    /// Whether the video packet decoded last was read while the input was probed (see
    /// `MediaFileReader.Packet.readWhileProbing`).
    package private(set) var lastVideoPacketReadWhileProbing: Bool?
    /// Whether the video decoder runs on hardware, and what was tried.
    package var videoHardware: HardwareDecodingOutcome? { video?.hardware }
    /// The libavcodec decoders in use ("h264", "aac", …), video first.
    package var decoderNames: [String] { [video?.decoderName, audio?.decoderName].compactMap { $0 } }
    /// The input's demuxer ("mpegts", "mov,mp4,m4a,3gp,3g2,mj2", "hls", …).
    package var formatName: String { reader.formatName }
    /// Whether the input has no known size and cannot seek (see `MediaFileReader.isUnbounded`).
    package var isUnbounded: Bool { reader.isUnbounded }

    /// Opens `path`; `decodeVideo`/`decodeAudio` pick the streams, `videoOutput` the frame size and format.
    /// `format` and `options` open a capture device or force a demuxer, `interrupt` lets another
    /// thread end a blocking open or read (see `MediaFileReader`).
    /// `lowDelay` asks the decoders to output each frame as soon as possible (live input), and
    /// `nonBlocking` is passed on to `MediaFileReader`; `hardware` picks a hardware video decoder
    /// (software when none opens, unless one type was demanded).
    package init(
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

    /// Whether an unflagged video packet is an H.264 IDR (or, with `hevc`, an H.265 IRAP) access
    /// unit in Annex-B form. The MPEG-TS demuxer flags keyframes only through its parser, which live
    /// playback leaves out, so the packet itself is looked at. (FLV and MP4 flag keyframes in the
    /// container.)
    static func startsDecoding(_ data: [UInt8], hevc: Bool = false) -> Bool {
        guard data.count > 4, data[0] == 0, data[1] == 0, data[2] == 1 || (data[2] == 0 && data[3] == 1) else { return false }
        return AnnexB.nalUnitRanges(in: data).contains { range in
            hevc
                ? HEVCNALUnitType(rawValue: (data[range.lowerBound] >> 1) & 0x3F).isIRAP
                : data[range.lowerBound] & 0x1F == H264NALUnitType.idr.rawValue
        }
    }

    /// Whether the decoded video is H.265 (its keyframes are told apart by their own NAL types).
    var videoIsHEVC: Bool { videoStream?.codecName == "hevc" }

    /// The codec parameters of stream `index`, valid while the decoder lives (for remuxing).
    func codecParameters(of index: Int) -> UnsafePointer<AVCodecParameters>? {
        reader.codecParameters(of: index)
    }

    /// The next decoded frame or audio buffer, or nil when the file is exhausted and decoders drained.
    package func next() throws -> Output? {
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
        guard let held = takeovers[track].offer(packet, isVideo: kind == .video, hevc: videoIsHEVC),
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
            if packet.isKeyframe || Self.startsDecoding(packet.data, hevc: videoIsHEVC) {
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
#endif
