extension H264ProfileLevel {
    /// An H.264 level with its limits from Table A-1 of ISO/IEC 14496-10.
    ///
    /// A case is named after the level's digits without the dot, as x264's `--level 31` spells
    /// level 3.1: `l31` is 3.1, `l3` is 3 (the raw value is `level_idc`, ten times the level).
    public enum Level: Int, Sendable, Codable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
        case l1 = 10, l11 = 11, l12 = 12, l13 = 13
        case l2 = 20, l21 = 21, l22 = 22
        case l3 = 30, l31 = 31, l32 = 32
        case l4 = 40, l41 = 41, l42 = 42
        case l5 = 50, l51 = 51, l52 = 52
        case l6 = 60, l61 = 61, l62 = 62

        /// `level_idc` as written in the SPS (ten times the level number).
        public var levelIDC: Int { rawValue }

        /// The level as text, e.g. "3.1".
        public var description: String { "\(rawValue / 10).\(rawValue % 10)" }

        /// Orders levels from the lowest (1.0) to the highest.
        public static func < (lhs: H264ProfileLevel.Level, rhs: H264ProfileLevel.Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Table A-1 limits: macroblocks per second, frame size in macroblocks, bit rate and CPB size
        /// in units of 1000 bits for Baseline/Main (multiply by `H264Profile.bitRateFactor` for High).
        public var limits: (maxMBPS: Int, maxFS: Int, maxBR: Int, maxCPB: Int) {
            switch self {
            case .l1: return (1_485, 99, 64, 175)
            case .l11: return (3_000, 396, 192, 500)
            case .l12: return (6_000, 396, 384, 1_000)
            case .l13: return (11_880, 396, 768, 2_000)
            case .l2: return (11_880, 396, 2_000, 2_000)
            case .l21: return (19_800, 792, 4_000, 4_000)
            case .l22: return (20_250, 1_620, 4_000, 4_000)
            case .l3: return (40_500, 1_620, 10_000, 10_000)
            case .l31: return (108_000, 3_600, 14_000, 14_000)
            case .l32: return (216_000, 5_120, 20_000, 20_000)
            case .l4: return (245_760, 8_192, 20_000, 25_000)
            case .l41: return (245_760, 8_192, 50_000, 62_500)
            case .l42: return (522_240, 8_704, 50_000, 62_500)
            case .l5: return (589_824, 22_080, 135_000, 135_000)
            case .l51: return (983_040, 36_864, 240_000, 240_000)
            case .l52: return (2_073_600, 36_864, 240_000, 240_000)
            case .l6: return (4_177_920, 139_264, 240_000, 240_000)
            case .l61: return (8_355_840, 139_264, 480_000, 480_000)
            case .l62: return (16_711_680, 139_264, 800_000, 800_000)
            }
        }

        /// The largest bit rate in bits/s this level allows for `profile`.
        public func maxBitRate(for profile: H264ProfileLevel.Profile) -> Int {
            Int(Double(limits.maxBR) * 1000 * profile.bitRateFactor)
        }

        /// The largest coded picture buffer in bits this level allows for `profile`.
        public func maxBufferBits(for profile: H264ProfileLevel.Profile) -> Int {
            Int(Double(limits.maxCPB) * 1000 * profile.bitRateFactor)
        }

        /// Why `settings` (size, frame rate, bit rates, buffer) exceed this level for `profile`, or nil.
        public func violation(of settings: VideoEncoderSettings, profile: H264ProfileLevel.Profile) -> SettingsError? {
            let mbWidth = (settings.width + 15) / 16, mbHeight = (settings.height + 15) / 16
            let frameSize = mbWidth * mbHeight
            let (maxMBPS, maxFS, _, _) = limits
            // A.3.1 (f)/(g): each dimension is at most sqrt(8 × MaxFS) macroblocks.
            let maxSide = Int(Double(8 * maxFS).squareRoot())
            if frameSize > maxFS || mbWidth > maxSide || mbHeight > maxSide {
                return SettingsError(
                    field: "width×height", value: "\(settings.width)×\(settings.height) (\(frameSize) macroblocks)",
                    allowed: "≤ \(maxFS) macroblocks, ≤ \(maxSide) macroblocks per side at level \(self)")
            }
            let mbps = Double(frameSize) * settings.expectedFrameRate
            if mbps > Double(maxMBPS) {
                let maxRate = Double(maxMBPS) / Double(frameSize)
                return SettingsError(
                    field: "expectedFrameRate", value: "\(settings.expectedFrameRate)",
                    allowed:
                        "≤ \((maxRate * 100).rounded(.down) / 100) fps at \(settings.width)×\(settings.height) for level \(self) (\(maxMBPS) macroblocks/s)"
                )
            }
            let maxBR = maxBitRate(for: profile)
            if settings.averageBitRate > maxBR {
                return SettingsError(
                    field: "averageBitRate", value: "\(settings.averageBitRate)",
                    allowed: "≤ \(maxBR) bits/s for \(profile) level \(self)")
            }
            for (index, limit) in settings.dataRateLimits.enumerated() {
                if limit.bitsPerSecond > Double(maxBR) {
                    return SettingsError(
                        field: "dataRateLimits[\(index)]", value: "\(Int(limit.bitsPerSecond)) bits/s",
                        allowed: "≤ \(maxBR) bits/s for \(profile) level \(self)")
                }
                if limit.bytes * 8 > maxBufferBits(for: profile) {
                    return SettingsError(
                        field: "dataRateLimits[\(index)].bytes", value: "\(limit.bytes)",
                        allowed: "≤ \(maxBufferBits(for: profile) / 8) bytes (MaxCPB) for \(profile) level \(self)")
                }
            }
            return nil
        }

        /// The lowest level whose limits hold `settings` at `settings.profileLevel.profile`, or nil if none does.
        public static func smallest(fitting settings: VideoEncoderSettings) -> H264ProfileLevel.Level? {
            allCases.first { $0.violation(of: settings, profile: settings.profileLevel.profile) == nil }
        }
    }
}

/// `H264ProfileLevel.Level` by its short name, inside the package.
package typealias H264Level = H264ProfileLevel.Level
