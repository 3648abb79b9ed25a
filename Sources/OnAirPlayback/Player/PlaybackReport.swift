#if os(Linux)
/// What `onair play --json` prints at the end: totals, the streams received and the latency.
public struct PlaybackReport: Sendable, Codable, Equatable {
    /// A received video stream.
    public struct Video: Sendable, Codable, Equatable {
        /// The stream's codec ("h264").
        public var codec: String
        /// Picture size of the decoded frames.
        public var width: Int, height: Int
        /// The libavcodec decoder used.
        public var decoder: String
        /// The hardware device type decoding it ("vaapi"), or nil for software.
        public var hardware: String?
        /// Each hardware device type tried and why it did not open.
        public var hardwareUnavailable: [String] = []

        enum CodingKeys: String, CodingKey {
            case codec, width, height, decoder, hardware
            case hardwareUnavailable = "hardware_unavailable"
        }

        /// Encodes `hardware` as null when decoding is in software, so the key is always there.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(codec, forKey: .codec)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
            try container.encode(decoder, forKey: .decoder)
            try container.encode(hardware, forKey: .hardware)
            try container.encode(hardwareUnavailable, forKey: .hardwareUnavailable)
        }
    }

    /// A received audio stream.
    public struct Audio: Sendable, Codable, Equatable {
        /// The stream's codec ("aac").
        public var codec: String
        /// Sample rate and channel count.
        public var sampleRate: Int, channels: Int
        /// The libavcodec decoder used.
        public var decoder: String

        enum CodingKeys: String, CodingKey {
            case codec, channels, decoder
            case sampleRate = "sample_rate"
        }
    }

    /// End-to-end latency percentiles in milliseconds.
    public struct Latency: Sendable, Codable, Equatable {
        /// Median, 95th percentile and maximum.
        public var p50: Double, p95: Double, max: Double
        /// Frames whose latency was measured.
        public var samples: Int
        /// Frames decoded from the start-up backlog (what the demuxer read while probing the
        /// input); their latency is not measured (see `BacklogDetector`).
        public var startupFrames: Int

        enum CodingKeys: String, CodingKey {
            case p50, p95, max, samples
            case startupFrames = "startup_frames"
        }
    }

    /// What changed mid-stream: the picture size, the audio format, the timeline.
    public struct Changes: Sendable, Codable, Equatable {
        /// Times the decoded picture's size changed (a new SPS, a new program in an MPEG-TS, a
        /// new FLV sequence header).
        public var pictureSize = 0
        /// Times the decoded audio's sample rate or channel count changed.
        public var audioFormat = 0
        /// Jumps in the timestamps (back more than 0.1 s, forward more than 10 s) joined into
        /// one continuous timeline, for audio and video together (see `TimelineJoiner`).
        public var timestampJumps = 0
        /// The picture sizes decoded, in order, each change adding one ("320x240", "640x360"); at most 16.
        public var pictureSizes: [String] = []

        /// No change yet.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case pictureSize = "picture_size"
            case audioFormat = "audio_format"
            case timestampJumps = "timestamp_jumps"
            case pictureSizes = "picture_sizes"
        }
    }

    /// The input as given.
    public var url: String
    /// Video frames decoded.
    public var frames: Int
    /// Frames per second over the decoded video's presentation span.
    public var fps: Double
    /// Seconds of media received (presentation span of the video, else of the audio).
    public var duration: Double
    /// Average bitrate of all received packets over `duration`, in kbit/s.
    public var bitrateKbps: Double
    /// Decoder errors plus damaged packets.
    public var decodeErrors: Int
    /// Packets the demuxer marked as damaged (included in `decodeErrors`).
    public var damagedPackets: Int
    /// Video packets of a live input received before its first keyframe and not decoded (a
    /// receiver joining mid-GOP); not errors.
    public var packetsBeforeKeyFrame: Int
    /// Freezes (see `FreezeDetector`).
    public var freezes: Int
    /// Audio samples (per channel) decoded.
    public var audioSamples: Int
    /// The video stream, if there is one.
    public var video: Video?
    /// The audio stream, if there is one.
    public var audio: Audio?
    /// Latency, with `--measure-latency` when frames carried a wall-clock code.
    public var latencyMs: Latency?
    /// Changes mid-stream: picture size, audio format, timestamp jumps.
    public var changes = Changes()
    /// What the window and speakers did; nil when playing headless (`--no-display`).
    public var display: Display?

    enum CodingKeys: String, CodingKey {
        case url, frames, fps, duration, freezes, video, audio, display, changes
        case bitrateKbps = "bitrate_kbps"
        case decodeErrors = "decode_errors"
        case damagedPackets = "damaged_packets"
        case packetsBeforeKeyFrame = "packets_before_keyframe"
        case audioSamples = "audio_samples"
        case latencyMs = "latency_ms"
    }
}
#endif
