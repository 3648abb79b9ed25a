/// The `nal_unit_type` of an H.265/HEVC NAL unit (ITU-T H.265 table 7-1), 0…63.
public struct HEVCNALUnitType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The six-bit type number.
    public let rawValue: UInt8

    /// Creates a type from its number; only the low six bits are kept.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x3F
    }

    /// Coded slice of a trailing picture, not used for reference (TRAIL_N).
    public static let trailN = HEVCNALUnitType(rawValue: 0)
    /// Coded slice of a trailing picture (TRAIL_R).
    public static let trailR = HEVCNALUnitType(rawValue: 1)
    /// Coded slice of a random-access decodable leading picture (RADL_R).
    public static let radlR = HEVCNALUnitType(rawValue: 7)
    /// Coded slice of a random-access skipped leading picture (RASL_R).
    public static let raslR = HEVCNALUnitType(rawValue: 9)
    /// Broken-link access picture with leading pictures (BLA_W_LP).
    public static let blaWithLeadingPictures = HEVCNALUnitType(rawValue: 16)
    /// Broken-link access picture with decodable leading pictures only (BLA_W_RADL).
    public static let blaWithDecodableLeadingPictures = HEVCNALUnitType(rawValue: 17)
    /// Broken-link access picture without leading pictures (BLA_N_LP).
    public static let blaWithoutLeadingPictures = HEVCNALUnitType(rawValue: 18)
    /// Instantaneous decoding refresh picture with decodable leading pictures (IDR_W_RADL).
    public static let idrWithDecodableLeadingPictures = HEVCNALUnitType(rawValue: 19)
    /// Instantaneous decoding refresh picture without leading pictures (IDR_N_LP).
    public static let idrWithoutLeadingPictures = HEVCNALUnitType(rawValue: 20)
    /// Clean random access picture (CRA_NUT): an open-GOP keyframe.
    public static let cra = HEVCNALUnitType(rawValue: 21)
    /// Video parameter set.
    public static let vps = HEVCNALUnitType(rawValue: 32)
    /// Sequence parameter set.
    public static let sps = HEVCNALUnitType(rawValue: 33)
    /// Picture parameter set.
    public static let pps = HEVCNALUnitType(rawValue: 34)
    /// Access unit delimiter.
    public static let accessUnitDelimiter = HEVCNALUnitType(rawValue: 35)
    /// End of sequence.
    public static let endOfSequence = HEVCNALUnitType(rawValue: 36)
    /// End of bitstream.
    public static let endOfBitstream = HEVCNALUnitType(rawValue: 37)
    /// Filler data.
    public static let fillerData = HEVCNALUnitType(rawValue: 38)
    /// Supplemental enhancement information before the picture's slices.
    public static let prefixSEI = HEVCNALUnitType(rawValue: 39)
    /// Supplemental enhancement information after the picture's slices.
    public static let suffixSEI = HEVCNALUnitType(rawValue: 40)

    /// Whether units of this type carry slice data (types 0…31).
    public var isVCL: Bool { rawValue < 32 }

    /// Whether this is an intra random access point picture: BLA, IDR or CRA (types 16…23).
    public var isIRAP: Bool { (16...23).contains(rawValue) }

    /// Whether this is an IDR picture (types 19 and 20): decoding starts clean, nothing before it is referenced.
    public var isIDR: Bool { rawValue == 19 || rawValue == 20 }

    /// Whether this is a VPS, SPS or PPS.
    public var isParameterSet: Bool { (32...34).contains(rawValue) }

    /// Whether this type, seen after a picture's last VCL unit, starts the next access unit
    /// (ITU-T H.265 7.4.2.4.4: AUD, VPS, SPS, PPS, prefix SEI and types 41…44 and 48…55).
    public var startsAccessUnit: Bool {
        switch rawValue {
        case 32...35, 39, 41...44, 48...55: return true
        default: return false
        }
    }

    /// A short name such as "IDR_W_RADL", "CRA" or "SPS".
    public var description: String {
        switch rawValue {
        case 0: return "TRAIL_N"
        case 1: return "TRAIL_R"
        case 2: return "TSA_N"
        case 3: return "TSA_R"
        case 4: return "STSA_N"
        case 5: return "STSA_R"
        case 6: return "RADL_N"
        case 7: return "RADL_R"
        case 8: return "RASL_N"
        case 9: return "RASL_R"
        case 16: return "BLA_W_LP"
        case 17: return "BLA_W_RADL"
        case 18: return "BLA_N_LP"
        case 19: return "IDR_W_RADL"
        case 20: return "IDR_N_LP"
        case 21: return "CRA"
        case 32: return "VPS"
        case 33: return "SPS"
        case 34: return "PPS"
        case 35: return "AUD"
        case 36: return "EOS"
        case 37: return "EOB"
        case 38: return "FD"
        case 39: return "prefix SEI"
        case 40: return "suffix SEI"
        default: return rawValue < 32 ? "reserved VCL \(rawValue)" : "type \(rawValue)"
        }
    }
}
