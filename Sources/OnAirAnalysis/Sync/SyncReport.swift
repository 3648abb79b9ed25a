#if os(Linux)
/// The result of `SyncAnalysis`: A/V offsets at each flash and frame continuity counts.
///
/// Encodes to JSON with the keys `max_av_offset_ms`, `mean_av_offset_ms` (both null when no
/// flash could be paired with a beep), `flashes`, `beeps`, `frames`, `dropped_frames`,
/// `repeated_frames` and `offsets`.
public struct SyncReport: Sendable, Codable, Equatable {
    /// The A/V offset measured at one flash.
    public struct Offset: Sendable, Codable, Equatable {
        /// The whole second of capture time the flash and beep mark.
        public var second: Int64
        /// Video minus audio, in milliseconds: positive when video plays late.
        public var offsetMilliseconds: Double

        /// Creates an offset for `second`.
        public init(second: Int64, offsetMilliseconds: Double) {
            self.second = second
            self.offsetMilliseconds = offsetMilliseconds
        }

        enum CodingKeys: String, CodingKey {
            case second
            case offsetMilliseconds = "offset_ms"
        }
    }

    /// The largest absolute offset in milliseconds, nil when nothing was paired.
    public var maxAVOffsetMilliseconds: Double?
    /// The mean absolute offset in milliseconds, nil when nothing was paired.
    public var meanAVOffsetMilliseconds: Double?
    /// Flashes found in the video.
    public var flashes: Int
    /// Beeps found in the audio.
    public var beeps: Int
    /// Video frames analysed.
    public var frames: Int
    /// Frame indices missing between the lowest and highest index read.
    public var droppedFrames: Int
    /// Frames whose index had already been read.
    public var repeatedFrames: Int
    /// The offset at every flash paired with a beep, in order.
    public var offsets: [Offset]

    /// Creates a report from its values.
    public init(
        maxAVOffsetMilliseconds: Double?, meanAVOffsetMilliseconds: Double?, flashes: Int, beeps: Int,
        frames: Int, droppedFrames: Int, repeatedFrames: Int, offsets: [Offset]
    ) {
        self.maxAVOffsetMilliseconds = maxAVOffsetMilliseconds
        self.meanAVOffsetMilliseconds = meanAVOffsetMilliseconds
        self.flashes = flashes
        self.beeps = beeps
        self.frames = frames
        self.droppedFrames = droppedFrames
        self.repeatedFrames = repeatedFrames
        self.offsets = offsets
    }

    enum CodingKeys: String, CodingKey {
        case maxAVOffsetMilliseconds = "max_av_offset_ms"
        case meanAVOffsetMilliseconds = "mean_av_offset_ms"
        case flashes, beeps, frames
        case droppedFrames = "dropped_frames"
        case repeatedFrames = "repeated_frames"
        case offsets
    }

    /// Encodes every key, writing null for missing offsets rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(maxAVOffsetMilliseconds, forKey: .maxAVOffsetMilliseconds)
        try container.encode(meanAVOffsetMilliseconds, forKey: .meanAVOffsetMilliseconds)
        try container.encode(flashes, forKey: .flashes)
        try container.encode(beeps, forKey: .beeps)
        try container.encode(frames, forKey: .frames)
        try container.encode(droppedFrames, forKey: .droppedFrames)
        try container.encode(repeatedFrames, forKey: .repeatedFrames)
        try container.encode(offsets, forKey: .offsets)
    }
}
#endif
