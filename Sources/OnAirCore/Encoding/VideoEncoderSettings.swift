/// How to encode H.264 or H.265, in VideoToolbox's vocabulary (`averageBitRate`, `dataRateLimits`, …).
///
/// `averageBitRate` and `dataRateLimits` can change while encoding; every other field is fixed
/// for the life of an encoder.
public struct VideoEncoderSettings: Sendable, Hashable, Codable {
    /// x264's preset names, fastest first.
    public static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast",
        "medium", "slow", "slower", "veryslow", "placebo",
    ]

    /// Picture width in pixels (even, for 4:2:0).
    public var width: Int
    /// Picture height in pixels (even, for 4:2:0).
    public var height: Int
    /// Frames per second the source delivers; drives rate control and level checks.
    public var expectedFrameRate: Double
    /// Target bit rate in bits per second.
    public var averageBitRate: Int
    /// Hard caps (VBV): each must be at least `averageBitRate`. Empty means none.
    public var dataRateLimits: [VideoEncoderSettings.DataRateLimit]
    /// The most frames from one keyframe to the next.
    public var maxKeyFrameInterval: Int
    /// The longest time in seconds from one keyframe to the next; 0 means no limit. The smaller of
    /// this and `maxKeyFrameInterval` wins.
    public var maxKeyFrameIntervalDuration: Double
    /// Whether B-frames (frames out of display order) may be used.
    public var allowFrameReordering: Bool
    /// The video codec: `.h264` (the default, so settings written before H.265 decode as they were) or `.h265`.
    public var codec: MediaCodec = .h264
    /// H.264 profile and level (or automatic level); unused for H.265.
    public var profileLevel: H264ProfileLevel
    /// H.265 profile, with the level left to the encoder as VideoToolbox has it; unused for H.264.
    public var hevcProfileLevel: HEVCProfileLevel = .mainAutoLevel
    /// Low latency: every frame's packet comes out before the next frame goes in (no lookahead, no B-frames).
    public var realTime: Bool
    /// `auto` to try hardware encoders first, or an FFmpeg encoder name such as `libx264`.
    public var encoder: String
    /// Speed/quality trade-off, one of x264's preset names (`VideoEncoderSettings.presets`).
    public var preset: String

    /// Creates settings; defaults suit 720p30 live streaming.
    public init(
        width: Int = 1280, height: Int = 720, expectedFrameRate: Double = 30,
        averageBitRate: Int = 2_500_000, dataRateLimits: [DataRateLimit]? = nil,
        maxKeyFrameInterval: Int = 60, maxKeyFrameIntervalDuration: Double = 2,
        allowFrameReordering: Bool = false, profileLevel: H264ProfileLevel = .auto(.high),
        realTime: Bool = true, encoder: String = "auto", preset: String = "veryfast", codec: MediaCodec = .h264
    ) {
        self.codec = codec
        self.width = width
        self.height = height
        self.expectedFrameRate = expectedFrameRate
        self.averageBitRate = averageBitRate
        self.dataRateLimits = dataRateLimits ?? [.relative(to: averageBitRate)]
        self.maxKeyFrameInterval = maxKeyFrameInterval
        self.maxKeyFrameIntervalDuration = maxKeyFrameIntervalDuration
        self.allowFrameReordering = allowFrameReordering
        self.profileLevel = profileLevel
        self.realTime = realTime
        self.encoder = encoder
        self.preset = preset
    }

    /// The key-frame interval in frames once both GOP settings apply (the smaller wins).
    public var effectiveKeyFrameInterval: Int {
        var interval = maxKeyFrameInterval
        if maxKeyFrameIntervalDuration > 0 {
            interval = min(interval, max(1, Int((maxKeyFrameIntervalDuration * expectedFrameRate).rounded(.down))))
        }
        return max(1, interval)
    }

    /// The fields as they are encoded (the property names).
    enum CodingKeys: String, CodingKey {
        case width, height, expectedFrameRate, averageBitRate, dataRateLimits, maxKeyFrameInterval
        case maxKeyFrameIntervalDuration, allowFrameReordering, codec, profileLevel, hevcProfileLevel, realTime, encoder, preset
    }

    /// Decodes settings; `codec` and `hevcProfileLevel` may be missing (settings from before H.265: H.264).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
        expectedFrameRate = try container.decode(Double.self, forKey: .expectedFrameRate)
        averageBitRate = try container.decode(Int.self, forKey: .averageBitRate)
        dataRateLimits = try container.decode([DataRateLimit].self, forKey: .dataRateLimits)
        maxKeyFrameInterval = try container.decode(Int.self, forKey: .maxKeyFrameInterval)
        maxKeyFrameIntervalDuration = try container.decode(Double.self, forKey: .maxKeyFrameIntervalDuration)
        allowFrameReordering = try container.decode(Bool.self, forKey: .allowFrameReordering)
        codec = try container.decodeIfPresent(MediaCodec.self, forKey: .codec) ?? .h264
        profileLevel = try container.decode(H264ProfileLevel.self, forKey: .profileLevel)
        hevcProfileLevel = try container.decodeIfPresent(HEVCProfileLevel.self, forKey: .hevcProfileLevel) ?? .mainAutoLevel
        realTime = try container.decode(Bool.self, forKey: .realTime)
        encoder = try container.decode(String.self, forKey: .encoder)
        preset = try container.decode(String.self, forKey: .preset)
    }

    /// The level to encode at: the fixed one, or the smallest that fits.
    public var resolvedLevel: H264ProfileLevel.Level? { profileLevel.level ?? H264ProfileLevel.Level.smallest(fitting: self) }

    /// Checks every field; throws the first problem, naming the field and the allowed range.
    public func validate() throws(SettingsError) {
        guard codec == .h264 || codec == .h265 else {
            throw SettingsError(field: "codec", value: codec.rawValue, allowed: "h264 or h265")
        }
        for (name, value) in [("width", width), ("height", height)] {
            guard value >= 2, value <= 16_384, value % 2 == 0 else {
                throw SettingsError(field: name, value: "\(value)", allowed: "even, 2…16384 (4:2:0 chroma)")
            }
        }
        guard expectedFrameRate.isFinite, expectedFrameRate > 0, expectedFrameRate <= 480 else {
            throw SettingsError(field: "expectedFrameRate", value: "\(expectedFrameRate)", allowed: "> 0 and ≤ 480 fps")
        }
        guard averageBitRate > 0 else {
            throw SettingsError(field: "averageBitRate", value: "\(averageBitRate)", allowed: "> 0 bits/s")
        }
        for (index, limit) in dataRateLimits.enumerated() {
            guard limit.bytes > 0 else {
                throw SettingsError(field: "dataRateLimits[\(index)].bytes", value: "\(limit.bytes)", allowed: "> 0")
            }
            guard limit.seconds.isFinite, limit.seconds > 0 else {
                throw SettingsError(field: "dataRateLimits[\(index)].seconds", value: "\(limit.seconds)", allowed: "> 0")
            }
            guard limit.bitsPerSecond >= Double(averageBitRate) else {
                throw SettingsError(
                    field: "dataRateLimits[\(index)]", value: "\(Int(limit.bitsPerSecond)) bits/s",
                    allowed: "≥ averageBitRate (\(averageBitRate) bits/s)")
            }
        }
        guard maxKeyFrameInterval >= 1 else {
            throw SettingsError(field: "maxKeyFrameInterval", value: "\(maxKeyFrameInterval)", allowed: "≥ 1 frame")
        }
        guard maxKeyFrameIntervalDuration.isFinite, maxKeyFrameIntervalDuration >= 0 else {
            throw SettingsError(
                field: "maxKeyFrameIntervalDuration", value: "\(maxKeyFrameIntervalDuration)",
                allowed: "≥ 0 seconds (0 = no limit)")
        }
        if codec == .h264 && allowFrameReordering && profileLevel.profile == .baseline {
            throw SettingsError(
                field: "allowFrameReordering", value: "true",
                allowed: "false with the baseline profile (Baseline has no B-frames)")
        }
        guard Self.presets.contains(preset) else {
            throw SettingsError(field: "preset", value: preset, allowed: Self.presets.joined(separator: ", "))
        }
        guard !encoder.isEmpty else {
            throw SettingsError(field: "encoder", value: "\"\"", allowed: "\"auto\" or an FFmpeg encoder name")
        }
        if codec == .h265 {
            try validateHEVC()
        } else if let level = profileLevel.level {
            if let problem = level.violation(of: self, profile: profileLevel.profile) { throw problem }
        } else if H264Level.smallest(fitting: self) == nil {
            throw SettingsError(
                field: "profileLevel", value: "\(profileLevel)",
                allowed: "settings within level 6.2 limits (size, frame rate, bit rate)")
        }
    }
}
