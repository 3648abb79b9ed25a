/// The general part of an HEVC `profile_tier_level()` (ITU-T H.265 7.3.3): what an `hvcC` record
/// repeats and what a decoder must support.
public struct HEVCProfileTierLevel: Sendable, Hashable {
    /// `general_profile_space` (0 in every profile defined so far).
    public var profileSpace: UInt8 = 0
    /// `general_tier_flag`: false for the Main tier, true for the High tier.
    public var highTier = false
    /// `general_profile_idc`: 1 Main, 2 Main 10, 3 Main Still Picture, 4 range extensions, …
    public var profileIdc: UInt8 = 0
    /// `general_profile_compatibility_flag[0…31]`, flag 0 in the most significant bit.
    public var profileCompatibilityFlags: UInt32 = 0
    /// The 48 bits from `general_progressive_source_flag` to `general_inbld_flag`, in the low bits.
    public var constraintIndicatorFlags: UInt64 = 0
    /// `general_level_idc`: 30 times the level number (93 is level 3.1).
    public var levelIdc: UInt8 = 0

    /// Creates a profile, tier and level from its fields.
    public init(
        profileSpace: UInt8 = 0, highTier: Bool = false, profileIdc: UInt8, profileCompatibilityFlags: UInt32 = 0,
        constraintIndicatorFlags: UInt64 = 0, levelIdc: UInt8
    ) {
        self.profileSpace = profileSpace
        self.highTier = highTier
        self.profileIdc = profileIdc
        self.profileCompatibilityFlags = profileCompatibilityFlags
        self.constraintIndicatorFlags = constraintIndicatorFlags
        self.levelIdc = levelIdc
    }

    /// Reads `profile_tier_level(1, maxSubLayersMinus1)`, skipping the sub-layer parts.
    init(reading reader: inout H264BitReader, maxSubLayersMinus1: Int) throws(BitstreamError) {
        profileSpace = UInt8(try reader.bits(2, "general_profile_space"))
        highTier = try reader.flag("general_tier_flag")
        profileIdc = UInt8(try reader.bits(5, "general_profile_idc"))
        profileCompatibilityFlags = UInt32(try reader.bits(32, "general_profile_compatibility_flag"))
        let high = UInt64(try reader.bits(16, "general_constraint_indicator_flags"))
        constraintIndicatorFlags = high << 32 | UInt64(try reader.bits(32, "general_constraint_indicator_flags"))
        levelIdc = UInt8(try reader.bits(8, "general_level_idc"))
        var profilePresent: [Bool] = [], levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            profilePresent.append(try reader.flag("sub_layer_profile_present_flag"))
            levelPresent.append(try reader.flag("sub_layer_level_present_flag"))
        }
        if maxSubLayersMinus1 > 0 {
            try reader.skip(2 * (8 - maxSubLayersMinus1), "reserved_zero_2bits")
        }
        for index in 0..<maxSubLayersMinus1 {
            if profilePresent[index] { try reader.skip(88, "sub_layer profile") }
            if levelPresent[index] { try reader.skip(8, "sub_layer_level_idc") }
        }
    }

    /// The profile's name ("Main", "Main 10", …), from `profileIdc` or, for 0, the first set
    /// compatibility flag.
    public var profileName: String {
        var idc = Int(profileIdc)
        if idc == 0, profileCompatibilityFlags != 0 { idc = profileCompatibilityFlags.leadingZeroBitCount }
        switch idc {
        case 1: return "Main"
        case 2: return "Main 10"
        case 3: return "Main Still Picture"
        case 4: return "Rext"
        case 5: return "High Throughput"
        case 9: return "Screen Content"
        default: return "profile \(idc)"
        }
    }

    /// "Main" or "High".
    public var tierName: String { highTier ? "High" : "Main" }

    /// The level as written in the spec: "3.1", "4", "6.2".
    public var levelName: String {
        let major = Int(levelIdc) / 30, minor = (Int(levelIdc) % 30) / 3
        return minor == 0 ? "\(major)" : "\(major).\(minor)"
    }

    /// The general fields as `hvcC` stores them: 1 + 4 + 6 + 1 bytes.
    var recordBytes: [UInt8] {
        var bytes: [UInt8] = [profileSpace << 6 | (highTier ? 0x20 : 0) | profileIdc & 0x1F]
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: profileCompatibilityFlags >> shift)) }
        for shift in stride(from: 40, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: constraintIndicatorFlags >> shift)) }
        bytes.append(levelIdc)
        return bytes
    }
}
