extension H264SPS {
    /// Whether `constraint_set<index>_flag` (0…5) is set.
    public func constraintSet(_ index: Int) -> Bool {
        guard (0...5).contains(index) else { return false }
        return constraintFlags & (0x80 >> UInt8(index)) != 0
    }

    /// Whether the profile is one of the intra-only ones (High 10/4:2:2/4:4:4 Intra, CAVLC 4:4:4).
    public var isIntraProfile: Bool {
        switch profileIdc {
        case 110, 122, 244: return constraintSet(3)
        case 44: return true
        default: return false
        }
    }

    /// The profile's name exactly as ffprobe 5.1 prints it ("Constrained Baseline", "High 10 Intra",
    /// "High 4:4:4 Predictive", …), or the `profile_idc` number for profiles FFmpeg has no name for.
    ///
    /// Follows FFmpeg's rule: `constraint_set1_flag` turns Baseline into Constrained Baseline, and
    /// `constraint_set3_flag` turns High 10, High 4:2:2 and High 4:4:4 Predictive into their Intra
    /// profiles.
    public var profileName: String {
        switch profileIdc {
        case 66: return constraintSet(1) ? "Constrained Baseline" : "Baseline"
        case 77: return "Main"
        case 88: return "Extended"
        case 100: return "High"
        case 110: return constraintSet(3) ? "High 10 Intra" : "High 10"
        case 122: return constraintSet(3) ? "High 4:2:2 Intra" : "High 4:2:2"
        case 144: return "High 4:4:4"
        case 244: return constraintSet(3) ? "High 4:4:4 Intra" : "High 4:4:4 Predictive"
        case 44: return "CAVLC 4:4:4"
        case 118: return "Multiview High"
        case 128: return "Stereo High"
        default: return String(profileIdc)
        }
    }

    /// The level as ffprobe 5.1 reports it: `level_idc / 10` (so 4.0, 3.1, …).
    ///
    /// Level 1b is reported the way FFmpeg does: as 1.1 when coded as `level_idc` 11 with
    /// `constraint_set3_flag` (Baseline, Main, Extended) and as 0.9 when coded as `level_idc` 9.
    /// Use `isLevel1b` or `levelName` to tell it apart.
    public var level: Double { Double(levelIdc) / 10 }

    /// Whether the level is 1b (`level_idc` 9, or 11 with `constraint_set3_flag` in Baseline,
    /// Main or Extended).
    public var isLevel1b: Bool {
        if levelIdc == 9 { return true }
        return levelIdc == 11 && constraintSet(3) && [66, 77, 88].contains(profileIdc)
    }

    /// The level as people write it: "1b", "3", "3.1", "4", "5.2", ….
    public var levelName: String {
        if isLevel1b { return "1b" }
        let major = Int(levelIdc) / 10, minor = Int(levelIdc) % 10
        return minor == 0 ? "\(major)" : "\(major).\(minor)"
    }
}
