import OnAirCore

/// RFC 6381 codec strings, as an HLS `CODECS` attribute and Media Source Extensions name a stream:
/// `avc1.64001f` from an H.264 SPS, `hvc1.1.6.L93.B0` from an H.265 profile, tier and level
/// (ISO/IEC 14496-15 annex E), `mp4a.40.2` from an AudioSpecificConfig.
package enum CodecString {
    /// The string of a format description: nil for one with no parameter sets or a codec HLS does not carry.
    package static func of(_ description: FormatDescription) -> String? {
        switch description {
        case .h264(let sps, _):
            return sps.first.flatMap { avc(sps: $0) }
        case .h265(_, let sps, _):
            guard let first = sps.first, let unit = try? HEVCNALUnit(first), let parsed = try? HEVCSPS(unit) else { return nil }
            return hevc(parsed.profileTierLevel)
        case .aac(let config):
            return aac(audioSpecificConfig: config)
        default:
            return nil
        }
    }

    /// `avc1.PPCCLL`: profile_idc, the constraint flags and level_idc of an SPS (with its NAL header byte), in hex.
    package static func avc(sps: [UInt8], tag: String = "avc1") -> String? {
        guard sps.count >= 4 else { return nil }
        return tag + "." + sps[1...3].map(hex).joined()
    }

    /// `hvc1.[A-C]P.C.TL.B…`: the profile space as a letter (none for 0) and the profile, the
    /// compatibility flags in reverse bit order (hex), the tier (L or H) and level, then the six
    /// constraint bytes (hex) with trailing zero bytes left out.
    package static func hevc(_ profile: HEVCProfileTierLevel, tag: String = "hvc1") -> String {
        let space = profile.profileSpace == 0 ? "" : String(UnicodeScalar(UInt8(64) + profile.profileSpace))
        // Flag 0 is the most significant bit of `profileCompatibilityFlags`; the string puts it lowest.
        var flags: UInt32 = 0
        for bit in 0..<32 where profile.profileCompatibilityFlags & (1 << (31 - bit)) != 0 { flags |= 1 << bit }
        var constraints = (0..<6).map { UInt8(truncatingIfNeeded: profile.constraintIndicatorFlags >> (8 * (5 - $0))) }
        while constraints.last == 0 { constraints.removeLast() }
        let parts = [
            tag, space + "\(profile.profileIdc)", String(flags, radix: 16, uppercase: true),
            (profile.highTier ? "H" : "L") + "\(profile.levelIdc)",
        ]
        return (parts + constraints.map { String($0, radix: 16, uppercase: true) }).joined(separator: ".")
    }

    /// `mp4a.40.N`: AAC with its audio object type (2 for AAC-LC); nil for a config that does not parse.
    package static func aac(audioSpecificConfig config: [UInt8]) -> String? {
        guard let parsed = try? AudioSpecificConfig(parsing: config) else { return nil }
        return "mp4a.40.\(parsed.audioObjectType)"
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }
}
