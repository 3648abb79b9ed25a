// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(VideoToolbox) || ONAIR_APPLE_STUBS
#if canImport(VideoToolbox)
import CoreFoundation
import VideoToolbox
#else
import AppleAPIStubs
#endif

/// The VideoToolbox constants the portable plan names by string.
enum VideoToolboxConstants {
    /// The `kVTCompressionPropertyKey_…` constant for a planned key.
    static func key(_ key: CompressionPropertyKey) -> CFString {
        switch key {
        case .realTime: return kVTCompressionPropertyKey_RealTime
        case .profileLevel: return kVTCompressionPropertyKey_ProfileLevel
        case .allowFrameReordering: return kVTCompressionPropertyKey_AllowFrameReordering
        case .maxKeyFrameInterval: return kVTCompressionPropertyKey_MaxKeyFrameInterval
        case .maxKeyFrameIntervalDuration: return kVTCompressionPropertyKey_MaxKeyFrameIntervalDuration
        case .expectedFrameRate: return kVTCompressionPropertyKey_ExpectedFrameRate
        case .averageBitRate: return kVTCompressionPropertyKey_AverageBitRate
        case .dataRateLimits: return kVTCompressionPropertyKey_DataRateLimits
        }
    }

    /// The `kVTProfileLevel_…` constants by the name after the prefix (what the plan holds).
    static var profileLevels: [String: CFString] {
        [
            "H264_Baseline_1_3": kVTProfileLevel_H264_Baseline_1_3,
            "H264_Baseline_3_0": kVTProfileLevel_H264_Baseline_3_0,
            "H264_Baseline_3_1": kVTProfileLevel_H264_Baseline_3_1,
            "H264_Baseline_3_2": kVTProfileLevel_H264_Baseline_3_2,
            "H264_Baseline_4_0": kVTProfileLevel_H264_Baseline_4_0,
            "H264_Baseline_4_1": kVTProfileLevel_H264_Baseline_4_1,
            "H264_Baseline_4_2": kVTProfileLevel_H264_Baseline_4_2,
            "H264_Baseline_5_0": kVTProfileLevel_H264_Baseline_5_0,
            "H264_Baseline_5_1": kVTProfileLevel_H264_Baseline_5_1,
            "H264_Baseline_5_2": kVTProfileLevel_H264_Baseline_5_2,
            "H264_Baseline_AutoLevel": kVTProfileLevel_H264_Baseline_AutoLevel,
            "H264_Main_3_0": kVTProfileLevel_H264_Main_3_0,
            "H264_Main_3_1": kVTProfileLevel_H264_Main_3_1,
            "H264_Main_3_2": kVTProfileLevel_H264_Main_3_2,
            "H264_Main_4_0": kVTProfileLevel_H264_Main_4_0,
            "H264_Main_4_1": kVTProfileLevel_H264_Main_4_1,
            "H264_Main_4_2": kVTProfileLevel_H264_Main_4_2,
            "H264_Main_5_0": kVTProfileLevel_H264_Main_5_0,
            "H264_Main_5_1": kVTProfileLevel_H264_Main_5_1,
            "H264_Main_5_2": kVTProfileLevel_H264_Main_5_2,
            "H264_Main_AutoLevel": kVTProfileLevel_H264_Main_AutoLevel,
            "H264_High_3_0": kVTProfileLevel_H264_High_3_0,
            "H264_High_3_1": kVTProfileLevel_H264_High_3_1,
            "H264_High_3_2": kVTProfileLevel_H264_High_3_2,
            "H264_High_4_0": kVTProfileLevel_H264_High_4_0,
            "H264_High_4_1": kVTProfileLevel_H264_High_4_1,
            "H264_High_4_2": kVTProfileLevel_H264_High_4_2,
            "H264_High_5_0": kVTProfileLevel_H264_High_5_0,
            "H264_High_5_1": kVTProfileLevel_H264_High_5_1,
            "H264_High_5_2": kVTProfileLevel_H264_High_5_2,
            "H264_High_AutoLevel": kVTProfileLevel_H264_High_AutoLevel,
            "HEVC_Main_AutoLevel": kVTProfileLevel_HEVC_Main_AutoLevel,
        ]
    }
}
#endif
