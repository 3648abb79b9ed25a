/// The `nal_unit_type` of an H.264 NAL unit (ITU-T H.264 table 7-1), 0…31.
public struct H264NALUnitType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five-bit type number.
    public let rawValue: UInt8

    /// Creates a type from its number; only the low five bits are kept.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x1F
    }

    /// Coded slice of a non-IDR picture.
    public static let slice = H264NALUnitType(rawValue: 1)
    /// Coded slice data partition A.
    public static let sliceDataA = H264NALUnitType(rawValue: 2)
    /// Coded slice data partition B.
    public static let sliceDataB = H264NALUnitType(rawValue: 3)
    /// Coded slice data partition C.
    public static let sliceDataC = H264NALUnitType(rawValue: 4)
    /// Coded slice of an IDR picture.
    public static let idr = H264NALUnitType(rawValue: 5)
    /// Supplemental enhancement information.
    public static let sei = H264NALUnitType(rawValue: 6)
    /// Sequence parameter set.
    public static let sps = H264NALUnitType(rawValue: 7)
    /// Picture parameter set.
    public static let pps = H264NALUnitType(rawValue: 8)
    /// Access unit delimiter.
    public static let accessUnitDelimiter = H264NALUnitType(rawValue: 9)
    /// End of sequence.
    public static let endOfSequence = H264NALUnitType(rawValue: 10)
    /// End of stream.
    public static let endOfStream = H264NALUnitType(rawValue: 11)
    /// Filler data.
    public static let fillerData = H264NALUnitType(rawValue: 12)
    /// Sequence parameter set extension.
    public static let spsExtension = H264NALUnitType(rawValue: 13)
    /// Prefix NAL unit (SVC/MVC).
    public static let prefix = H264NALUnitType(rawValue: 14)
    /// Subset sequence parameter set (SVC/MVC).
    public static let subsetSPS = H264NALUnitType(rawValue: 15)
    /// Coded slice of an auxiliary coded picture without partitioning.
    public static let auxiliarySlice = H264NALUnitType(rawValue: 19)
    /// Coded slice extension (SVC/MVC).
    public static let sliceExtension = H264NALUnitType(rawValue: 20)

    /// Whether units of this type carry slice data of the primary coded picture (types 1…5).
    public var isVCL: Bool { (1...5).contains(rawValue) }

    /// Whether this type, seen after the last VCL unit of a picture, starts a new access unit
    /// (ITU-T H.264 7.4.1.2.3: access unit delimiter, SPS, PPS, SEI, and types 14…18).
    public var startsAccessUnit: Bool {
        switch rawValue {
        case 6, 7, 8, 9, 14...18: return true
        default: return false
        }
    }

    /// A short name such as "IDR", "non-IDR slice" or "SPS".
    public var description: String {
        switch rawValue {
        case 0: return "unspecified (0)"
        case 1: return "non-IDR slice"
        case 2: return "slice data A"
        case 3: return "slice data B"
        case 4: return "slice data C"
        case 5: return "IDR"
        case 6: return "SEI"
        case 7: return "SPS"
        case 8: return "PPS"
        case 9: return "AUD"
        case 10: return "end of sequence"
        case 11: return "end of stream"
        case 12: return "filler data"
        case 13: return "SPS extension"
        case 14: return "prefix"
        case 15: return "subset SPS"
        case 16: return "depth parameter set"
        case 19: return "auxiliary slice"
        case 20: return "slice extension"
        case 21: return "depth slice extension"
        case 24...31: return "unspecified (\(rawValue))"
        default: return "reserved (\(rawValue))"
        }
    }
}
