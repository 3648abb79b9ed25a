import OnAirCore

/// A VideoToolbox compression-session property key, named as VideoToolbox names it after
/// `kVTCompressionPropertyKey_` (the raw value).
public enum CompressionPropertyKey: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `kVTCompressionPropertyKey_RealTime`: no lookahead, frames out as they come in.
    case realTime = "RealTime"
    /// `kVTCompressionPropertyKey_ProfileLevel`.
    case profileLevel = "ProfileLevel"
    /// `kVTCompressionPropertyKey_AllowFrameReordering`: B-frames.
    case allowFrameReordering = "AllowFrameReordering"
    /// `kVTCompressionPropertyKey_MaxKeyFrameInterval`, in frames.
    case maxKeyFrameInterval = "MaxKeyFrameInterval"
    /// `kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration`, in seconds.
    case maxKeyFrameIntervalDuration = "MaxKeyFrameIntervalDuration"
    /// `kVTCompressionPropertyKey_ExpectedFrameRate`, frames per second.
    case expectedFrameRate = "ExpectedFrameRate"
    /// `kVTCompressionPropertyKey_AverageBitRate`, bits per second.
    case averageBitRate = "AverageBitRate"
    /// `kVTCompressionPropertyKey_DataRateLimits`: alternating byte counts and window lengths in seconds.
    case dataRateLimits = "DataRateLimits"

    /// The constant's full name, e.g. `kVTCompressionPropertyKey_RealTime`.
    public var constantName: String { "kVTCompressionPropertyKey_" + rawValue }

    /// Orders keys as the plan sets them (declaration order).
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A property value as VideoToolbox takes it: a CFBoolean, a CFNumber, a profile/level constant or
/// a CFArray of numbers.
public enum CompressionPropertyValue: Sendable, Hashable, CustomStringConvertible {
    /// A CFBoolean.
    case boolean(Bool)
    /// A CFNumber holding an integer.
    case integer(Int)
    /// A CFNumber holding a floating-point value.
    case number(Double)
    /// A `kVTProfileLevel_…` constant, named after the prefix (e.g. `H264_Baseline_AutoLevel`).
    case profileLevel(String)
    /// A CFArray of CFNumbers (DataRateLimits: bytes, seconds, bytes, seconds, …).
    case numbers([Double])

    /// The value as it reads in a table: `true`, `10`, `H264_High_AutoLevel`, `[180000, 1]`.
    public var description: String {
        switch self {
        case .boolean(let value): return "\(value)"
        case .integer(let value): return "\(value)"
        case .number(let value): return Self.format(value)
        case .profileLevel(let name): return name
        case .numbers(let values): return "[" + values.map(Self.format).joined(separator: ", ") + "]"
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}

/// Everything a VTCompressionSession is opened with, as plain data: the size, the properties
/// (keys and values in the order they are set) and whether hardware is required. Made from
/// `VideoEncoderSettings` on any platform, so that the choices are tested where no VideoToolbox exists;
/// the Apple adapter only turns each entry into its CoreFoundation form.
public struct CompressionPropertyPlan: Sendable, Hashable {
    /// One property to set.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// The key.
        public var key: CompressionPropertyKey
        /// The value.
        public var value: CompressionPropertyValue

        /// Creates an entry.
        public init(_ key: CompressionPropertyKey, _ value: CompressionPropertyValue) {
            self.key = key
            self.value = value
        }

        /// `Key = value`.
        public var description: String { "\(key.rawValue) = \(value)" }
    }

    /// The H.264 levels VideoToolbox has a constant for, per profile (`kVTProfileLevel_H264_<Profile>_<Level>`).
    public static let namedLevels: [H264ProfileLevel.Profile: [H264ProfileLevel.Level]] = [
        .baseline: [.l13, .l3, .l31, .l32, .l4, .l41, .l42, .l5, .l51, .l52],
        .main: [.l3, .l31, .l32, .l4, .l41, .l42, .l5, .l51, .l52],
        .high: [.l3, .l31, .l32, .l4, .l41, .l42, .l5, .l51, .l52],
    ]

    /// The codec the session is created for: `kCMVideoCodecType_H264` or `kCMVideoCodecType_HEVC`.
    public var codec: MediaCodec
    /// Picture width the session is created with.
    public var width: Int
    /// Picture height the session is created with.
    public var height: Int
    /// The properties, in the order they are set.
    public var entries: [Entry]
    /// Whether to ask for the hardware encoder (`RequireHardwareAcceleratedVideoEncoder`).
    public var requireHardware: Bool

    /// The plan for `settings`: every field of the settings that VideoToolbox has a property for.
    ///
    /// RealTime, ProfileLevel, AllowFrameReordering, MaxKeyFrameInterval, ExpectedFrameRate and
    /// AverageBitRate always; MaxKeyFrameIntervalDuration when it is above 0 (0 means no limit);
    /// DataRateLimits when there are any, as `[bytes, seconds, …]` (VideoToolbox counts bytes).
    /// For H.265 the profile is `HEVC_Main_AutoLevel` (VideoToolbox names no HEVC levels; Main 10
    /// is refused by the settings' validation). Throws when the settings are invalid or name a
    /// level VideoToolbox has no constant for.
    public init(settings: VideoEncoderSettings, requireHardware: Bool = false) throws(SettingsError) {
        try settings.validate()
        codec = settings.codec
        width = settings.width
        height = settings.height
        self.requireHardware = requireHardware
        var entries: [Entry] = [
            Entry(.realTime, .boolean(settings.realTime)),
            Entry(
                .profileLevel,
                .profileLevel(
                    settings.codec == .h265 ? settings.hevcProfileLevel.rawValue : try Self.profileLevelName(settings.profileLevel))),
            Entry(.allowFrameReordering, .boolean(settings.allowFrameReordering)),
            Entry(.maxKeyFrameInterval, .integer(settings.maxKeyFrameInterval)),
        ]
        if settings.maxKeyFrameIntervalDuration > 0 {
            entries.append(Entry(.maxKeyFrameIntervalDuration, .number(settings.maxKeyFrameIntervalDuration)))
        }
        entries.append(Entry(.expectedFrameRate, .number(settings.expectedFrameRate)))
        entries.append(contentsOf: Self.bitRateEntries(average: settings.averageBitRate, limits: settings.dataRateLimits))
        self.entries = entries
    }

    /// The entries a live bitrate change sets: AverageBitRate and (when any) DataRateLimits.
    public static func bitRateEntries(average: Int, limits: [VideoEncoderSettings.DataRateLimit]) -> [Entry] {
        var entries = [Entry(.averageBitRate, .integer(average))]
        if !limits.isEmpty {
            entries.append(Entry(.dataRateLimits, .numbers(limits.flatMap { [Double($0.bytes), $0.seconds] })))
        }
        return entries
    }

    /// The `CMVideoCodecType` constant's name the session is created with.
    public var codecTypeName: String { codec == .h265 ? "kCMVideoCodecType_HEVC" : "kCMVideoCodecType_H264" }

    /// The value planned for `key`, if any.
    public subscript(key: CompressionPropertyKey) -> CompressionPropertyValue? {
        entries.first { $0.key == key }?.value
    }

    /// The plan as a table, one `Key = value` per line.
    public var table: String { entries.map(\.description).joined(separator: "\n") }

    /// This plan at the size of the first frame (the session opens when it arrives).
    public func sized(width: Int, height: Int) -> CompressionPropertyPlan {
        var sized = self
        sized.width = width
        sized.height = height
        return sized
    }

    /// The `kVTProfileLevel_` constant's name after the prefix: `H264_High_AutoLevel`, `H264_Baseline_3_1`.
    public static func profileLevelName(_ profileLevel: H264ProfileLevel) throws(SettingsError) -> String {
        let profile: String
        switch profileLevel.profile {
        case .baseline: profile = "Baseline"
        case .main: profile = "Main"
        case .high: profile = "High"
        }
        guard let level = profileLevel.level else { return "H264_\(profile)_AutoLevel" }
        let named = namedLevels[profileLevel.profile] ?? []
        guard named.contains(level) else {
            throw SettingsError(
                field: "profileLevel", value: "\(profileLevel)",
                allowed: "auto or a level VideoToolbox names for \(profileLevel.profile): "
                    + named.map(\.description).joined(separator: ", "))
        }
        return "H264_\(profile)_\(level.levelIDC / 10)_\(level.levelIDC % 10)"
    }
}
