#if os(Linux)
/// What `onair probe` found in a file: one entry per audio or video stream.
public struct ProbeReport: Sendable, Codable, Equatable {
    /// The container format ("h264", "adts", "mp4", "mpegts", "flv", …).
    public var format: String
    /// The H.264, H.265 and AAC streams, in the file's order.
    public var streams: [Stream]
    /// Every NAL unit or ADTS frame, when asked for with `--units`.
    public var units: [Unit]?
}

extension ProbeReport {
    /// The summary of one stream, read by OnAir's own bitstream parsers.
    ///
    /// Video fields are nil for audio and the other way round. Keys in JSON are snake_case.
    public struct Stream: Sendable, Codable, Equatable {
        /// "video" or "audio".
        public var type: String
        /// "h264", "hevc" or "aac".
        public var codec: String
        /// ffprobe's profile name ("High", "Constrained Baseline", "LC", "HE-AAC", …).
        public var profile: String
        /// The level: level_idc / 10 for H.264, general_level_idc / 30 for H.265.
        public var level: Double?
        /// H.265's tier, "Main" or "High" (nil for H.264 and audio).
        public var tier: String?
        /// Displayed (cropped) width.
        public var width: Int?
        /// Displayed (cropped) height.
        public var height: Int?
        /// Width in macroblocks × 16, before cropping.
        public var codedWidth: Int?
        /// Height in macroblocks × 16, before cropping.
        public var codedHeight: Int?
        /// 0 = monochrome, 1 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4.
        public var chromaFormat: Int?
        /// Bits per luma sample (8 for the streams OnAir encodes).
        public var bitDepth: Int?
        /// "CABAC" or "CAVLC".
        public var entropyCoding: String?
        /// Whether the stream codes fields (interlaced or MBAFF).
        public var interlaced: Bool?
        /// Frames per second from the SPS timing information, else from the container.
        public var frameRate: Double?
        /// Pictures (video, a field pair counting once) or AAC frames (audio).
        public var frames: Int
        /// IDR pictures.
        public var keyframes: Int?
        /// The longest run of pictures from one IDR up to the next (or the end).
        public var maxGop: Int?
        /// Whether any picture has a B slice (H.265: whether the SPS lets pictures be reordered).
        public var bFrames: Bool?
        /// Audio sample rate (the output rate for HE-AAC).
        public var sampleRate: Int?
        /// Audio channel count.
        public var channels: Int?
        /// Seconds.
        public var duration: Double
        /// Bits per second of the coded stream.
        public var bitRate: Int
        /// Units or frames that could not be parsed and were skipped.
        public var damaged: Int

        enum CodingKeys: String, CodingKey {
            case type, codec, profile, level, tier, width, height
            case codedWidth = "coded_width", codedHeight = "coded_height"
            case chromaFormat = "chroma_format", bitDepth = "bit_depth"
            case entropyCoding = "entropy_coding", interlaced
            case frameRate = "frame_rate", frames, keyframes
            case maxGop = "max_gop", bFrames = "b_frames"
            case sampleRate = "sample_rate", channels, duration
            case bitRate = "bit_rate", damaged
        }
    }
}

/// `ProbeReport.Stream` by its short name, inside the package.
package typealias ProbedStream = ProbeReport.Stream

extension ProbeReport {
    /// One NAL unit or ADTS frame, for `onair probe --units`.
    public struct Unit: Sendable, Codable, Equatable {
        /// Index of the stream in `ProbeReport.streams`.
        public var stream: Int
        /// "IDR", "SPS", "non-IDR slice", … for H.264; "ADTS" or "AAC" for audio.
        public var type: String
        /// Size in bytes (the NAL unit without start code or length; the whole ADTS frame).
        public var size: Int
        /// "I", "P", "B", "SP" or "SI" for slices.
        public var sliceType: String?
        /// Byte offset in an elementary-stream file.
        public var offset: Int?
        /// Presentation time in seconds, from a container.
        public var pts: Double?

        enum CodingKeys: String, CodingKey {
            case stream, type, size, offset, pts
            case sliceType = "slice_type"
        }
    }
}

/// `ProbeReport.Unit` by its short name, inside the package.
package typealias ProbedUnit = ProbeReport.Unit
#endif
