import OnAirApple
import OnAirCore
import Testing

/// The VideoToolbox property plan made from `VideoEncoderSettings`, compared with what the five
/// original designs set (issue 31's table). Where the plan sets a key the design left out, the
/// test names it: those are the only differences.
@Suite struct CompressionPropertyPlanTests {
    /// One design: the settings that express it, the properties it set, and the keys our plan adds.
    struct Design {
        var name: String
        var settings: VideoEncoderSettings
        var expected: [CompressionPropertyKey: CompressionPropertyValue]
        var added: Set<CompressionPropertyKey>
    }

    static let designs: [Design] = [
        // Camera app: 640x480 Baseline auto level, real time, GOP 10, 25 fps, 960 kbit/s, a cap of
        // 1.5 × the average over 1 s. The original passed 1_440_000 (a bit count) where VideoToolbox
        // takes bytes; the plan's cap is 180_000 bytes.
        Design(
            name: "camera app",
            settings: VideoEncoderSettings(
                width: 640, height: 480, expectedFrameRate: 25, averageBitRate: 960_000,
                dataRateLimits: [.relative(to: 960_000)], maxKeyFrameInterval: 10, maxKeyFrameIntervalDuration: 0,
                profileLevel: .auto(.baseline)),
            expected: [
                .profileLevel: .profileLevel("H264_Baseline_AutoLevel"), .realTime: .boolean(true),
                .maxKeyFrameInterval: .integer(10), .expectedFrameRate: .number(25), .averageBitRate: .integer(960_000),
                .dataRateLimits: .numbers([180_000, 1]),
            ],
            // Baseline has no B-frames: the design left the key out, the plan says false outright.
            added: [.allowFrameReordering]),
        // Device server: 640x480 Baseline, GOP 10 at 10 fps, bitrate and cap as given.
        Design(
            name: "device server",
            settings: VideoEncoderSettings(
                width: 640, height: 480, expectedFrameRate: 10, averageBitRate: 500_000,
                dataRateLimits: [DataRateLimit(bytes: 100_000, seconds: 1)], maxKeyFrameInterval: 10,
                maxKeyFrameIntervalDuration: 0, profileLevel: .auto(.baseline)),
            expected: [
                .profileLevel: .profileLevel("H264_Baseline_AutoLevel"), .realTime: .boolean(true),
                .allowFrameReordering: .boolean(false), .maxKeyFrameInterval: .integer(10),
                .expectedFrameRate: .number(10), .averageBitRate: .integer(500_000),
                .dataRateLimits: .numbers([100_000, 1]),
            ],
            added: []),
        // Low-rate sender: Baseline 3.1, a keyframe every 2 s at 15 fps (interval 30 and duration 2),
        // 512 × 1024 bits/s, no cap.
        Design(
            name: "low-rate sender",
            settings: VideoEncoderSettings(
                width: 480, height: 360, expectedFrameRate: 15, averageBitRate: 524_288, dataRateLimits: [],
                maxKeyFrameInterval: 15 * 2, maxKeyFrameIntervalDuration: 2,
                profileLevel: H264ProfileLevel(.baseline, .l31)),
            expected: [
                .profileLevel: .profileLevel("H264_Baseline_3_1"), .realTime: .boolean(true),
                .allowFrameReordering: .boolean(false), .maxKeyFrameInterval: .integer(30),
                .maxKeyFrameIntervalDuration: .number(2), .expectedFrameRate: .number(15),
                .averageBitRate: .integer(524_288),
            ],
            added: []),
        // Swift encoder: High auto level, real time, GOP, rate and bitrate as given (its size comes
        // from the first pixel buffer: see `sized(width:height:)`).
        Design(
            name: "Swift encoder",
            settings: VideoEncoderSettings(
                width: 1280, height: 720, expectedFrameRate: 30, averageBitRate: 2_000_000, dataRateLimits: [],
                maxKeyFrameInterval: 60, maxKeyFrameIntervalDuration: 0, profileLevel: .auto(.high)),
            expected: [
                .profileLevel: .profileLevel("H264_High_AutoLevel"), .realTime: .boolean(true),
                .allowFrameReordering: .boolean(false), .maxKeyFrameInterval: .integer(60),
                .expectedFrameRate: .number(30), .averageBitRate: .integer(2_000_000),
            ],
            added: []),
        // File encoder: High (or Main) auto level, real time, no reordering, GOP 240; it set no
        // rate or bitrate, which the plan always sets (VideoEncoderSettings always has them).
        Design(
            name: "file encoder",
            settings: VideoEncoderSettings(
                width: 1920, height: 1080, expectedFrameRate: 30, averageBitRate: 6_000_000, dataRateLimits: [],
                maxKeyFrameInterval: 240, maxKeyFrameIntervalDuration: 0, profileLevel: .auto(.high)),
            expected: [
                .profileLevel: .profileLevel("H264_High_AutoLevel"), .realTime: .boolean(true),
                .allowFrameReordering: .boolean(false), .maxKeyFrameInterval: .integer(240),
            ],
            added: [.expectedFrameRate, .averageBitRate]),
    ]

    @Test(arguments: designs.map(\.name))
    func planMatchesTheDesign(_ name: String) throws {
        let design = try #require(Self.designs.first { $0.name == name })
        let plan = try CompressionPropertyPlan(settings: design.settings)
        for (key, value) in design.expected {
            #expect(plan[key] == value, "\(name): \(key.rawValue)")
        }
        let planned = Set(plan.entries.map(\.key))
        #expect(planned.subtracting(design.expected.keys) == design.added, "\(name): keys beyond the design's")
        #expect(plan.entries.count == planned.count, "a key set twice")
        #expect(plan.width == design.settings.width && plan.height == design.settings.height)
    }

    @Test func fileEncoderMainProfile() throws {
        let settings = VideoEncoderSettings(maxKeyFrameInterval: 240, profileLevel: .auto(.main))
        #expect(try CompressionPropertyPlan(settings: settings)[.profileLevel] == .profileLevel("H264_Main_AutoLevel"))
    }

    /// H.265: a session of `kCMVideoCodecType_HEVC` with `HEVC_Main_AutoLevel`, whatever H.264
    /// profile the settings carry, and the same rate, keyframe and real-time properties; Main 10
    /// is refused before any session is made.
    @Test func hevcSessionWithTheMainProfileAndTheSameProperties() throws {
        var settings = VideoEncoderSettings(maxKeyFrameInterval: 60, profileLevel: .auto(.high))
        let h264 = try CompressionPropertyPlan(settings: settings)
        #expect(h264.codecTypeName == "kCMVideoCodecType_H264")
        settings.codec = .h265
        let plan = try CompressionPropertyPlan(settings: settings)
        #expect(plan.codec == .h265 && plan.codecTypeName == "kCMVideoCodecType_HEVC")
        #expect(plan[.profileLevel] == .profileLevel("HEVC_Main_AutoLevel"))
        #expect(plan.entries.filter { $0.key != .profileLevel } == h264.entries.filter { $0.key != .profileLevel })
        settings.hevcProfileLevel = .main10AutoLevel
        #expect(throws: SettingsError.self) { try CompressionPropertyPlan(settings: settings) }
    }

    @Test func cameraAppCapIsTheOriginalBitCountInBytes() throws {
        let plan = try CompressionPropertyPlan(settings: Self.designs[0].settings)
        let originalBits = 1_440_000.0
        #expect(plan[.dataRateLimits] == .numbers([originalBits / 8, 1]))
    }

    @Test func tableReadsInSettingOrder() throws {
        let plan = try CompressionPropertyPlan(settings: Self.designs[2].settings)
        #expect(
            plan.table == """
                RealTime = true
                ProfileLevel = H264_Baseline_3_1
                AllowFrameReordering = false
                MaxKeyFrameInterval = 30
                MaxKeyFrameIntervalDuration = 2
                ExpectedFrameRate = 15
                AverageBitRate = 524288
                """)
        #expect(plan.entries.map(\.key) == plan.entries.map(\.key).sorted())
        #expect(CompressionPropertyKey.realTime.constantName == "kVTCompressionPropertyKey_RealTime")
    }

    @Test func everyFixedLevelNamesAConstantOrIsRefused() throws {
        for profile in H264Profile.allCases {
            for level in H264Level.allCases {
                let profileLevel = H264ProfileLevel(profile, level)
                let named = CompressionPropertyPlan.namedLevels[profile]!.contains(level)
                if named {
                    let name = try CompressionPropertyPlan.profileLevelName(profileLevel)
                    #expect(name.hasPrefix("H264_") && name.hasSuffix("_\(level.levelIDC / 10)_\(level.levelIDC % 10)"))
                } else {
                    #expect(throws: SettingsError.self) { try CompressionPropertyPlan.profileLevelName(profileLevel) }
                }
            }
        }
    }

    @Test func invalidSettingsAreRefused() {
        #expect(throws: SettingsError.self) {
            try CompressionPropertyPlan(settings: VideoEncoderSettings(allowFrameReordering: true, profileLevel: .auto(.baseline)))
        }
        #expect(throws: SettingsError.self) { try CompressionPropertyPlan(settings: VideoEncoderSettings(width: 0)) }
    }

    @Test func bitRateChangeScalesTheCap() {
        let settings = Self.designs[0].settings.withAverageBitRate(480_000)
        let entries = CompressionPropertyPlan.bitRateEntries(average: settings.averageBitRate, limits: settings.dataRateLimits)
        #expect(entries == [.init(.averageBitRate, .integer(480_000)), .init(.dataRateLimits, .numbers([90_000, 1]))])
    }

    @Test func sizeFromTheFirstFrame() throws {
        let plan = try CompressionPropertyPlan(settings: Self.designs[3].settings).sized(width: 1920, height: 1080)
        #expect(plan.width == 1920 && plan.height == 1080)
    }
}
