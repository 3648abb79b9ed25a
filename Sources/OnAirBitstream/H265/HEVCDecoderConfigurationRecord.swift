/// The H.265/HEVC decoder configuration record stored in an MP4 `hvcC` box (ISO/IEC 14496-15
/// 8.3.3.1): profile, tier and level, chroma format and bit depth, the length size of the samples'
/// NAL-unit lengths, and arrays of NAL units (VPS, SPS, PPS, SEI).
public struct HEVCDecoderConfigurationRecord: Sendable, Equatable {
    /// One array of NAL units of one type.
    public struct NALUnitArray: Sendable, Equatable {
        /// `array_completeness`: every unit of this type is here, none in the samples (as `hvc1` requires).
        public var complete: Bool
        /// `NAL_unit_type` of the units.
        public var type: HEVCNALUnitType
        /// The units.
        public var units: [HEVCNALUnit]

        /// Creates an array.
        public init(complete: Bool, type: HEVCNALUnitType, units: [HEVCNALUnit]) {
            self.complete = complete
            self.type = type
            self.units = units
        }
    }

    /// `configurationVersion` (1).
    public var configurationVersion: UInt8 = 1
    /// The general profile, tier and level.
    public var profileTierLevel: HEVCProfileTierLevel
    /// `min_spatial_segmentation_idc` (12 bits).
    public var minSpatialSegmentation: Int = 0
    /// `parallelismType` (0 unknown, 1 slices, 2 tiles, 3 wavefronts).
    public var parallelismType: UInt8 = 0
    /// `chromaFormat`: the SPS's `chroma_format_idc`.
    public var chromaFormat: UInt8 = 1
    /// `bitDepthLumaMinus8 + 8`.
    public var bitDepthLuma: UInt8 = 8
    /// `bitDepthChromaMinus8 + 8`.
    public var bitDepthChroma: UInt8 = 8
    /// `avgFrameRate` in frames per 256 seconds (0: unspecified).
    public var averageFrameRate: UInt16 = 0
    /// `constantFrameRate` (0…3).
    public var constantFrameRate: UInt8 = 0
    /// `numTemporalLayers` (0…7; 0 unknown).
    public var numTemporalLayers: UInt8 = 1
    /// `temporalIdNested`.
    public var temporalIDNested = false
    /// The byte length of the NAL-unit length fields in samples (`lengthSizeMinusOne + 1`: 1, 2 or 4).
    public var lengthSize: Int = 4
    /// The NAL-unit arrays, in order.
    public var arrays: [NALUnitArray] = []

    /// Every unit of the arrays of `type`.
    public func units(of type: HEVCNALUnitType) -> [HEVCNALUnit] {
        arrays.filter { $0.type == type }.flatMap(\.units)
    }

    /// The VPS, SPS and PPS units, in that order: what goes in front of a keyframe in Annex-B.
    public var parameterSets: [HEVCNALUnit] { units(of: .vps) + units(of: .sps) + units(of: .pps) }

    /// Parses an `hvcC` box payload (without the box's size and type). Reserved bits are not checked
    /// and `serialized()` writes them as the specification says.
    public init(parsing bytes: [UInt8]) throws(BitstreamError) {
        var reader = H264BitReader(bytes)
        configurationVersion = UInt8(try reader.bits(8, "hvcC configurationVersion"))
        guard configurationVersion == 1 else { throw BitstreamError.unsupported("hvcC configurationVersion \(configurationVersion)") }
        let space = UInt8(try reader.bits(2, "hvcC general_profile_space"))
        let tier = try reader.flag("hvcC general_tier_flag")
        let idc = UInt8(try reader.bits(5, "hvcC general_profile_idc"))
        let compatibility = UInt32(try reader.bits(32, "hvcC general_profile_compatibility_flags"))
        let constraintsHigh = UInt64(try reader.bits(16, "hvcC general_constraint_indicator_flags"))
        let constraintsLow = UInt64(try reader.bits(32, "hvcC general_constraint_indicator_flags"))
        let level = UInt8(try reader.bits(8, "hvcC general_level_idc"))
        profileTierLevel = HEVCProfileTierLevel(
            profileSpace: space, highTier: tier, profileIdc: idc, profileCompatibilityFlags: compatibility,
            constraintIndicatorFlags: constraintsHigh << 32 | constraintsLow, levelIdc: level)
        try reader.skip(4, "hvcC reserved")
        minSpatialSegmentation = try reader.bits(12, "hvcC min_spatial_segmentation_idc")
        try reader.skip(6, "hvcC reserved")
        parallelismType = UInt8(try reader.bits(2, "hvcC parallelismType"))
        try reader.skip(6, "hvcC reserved")
        chromaFormat = UInt8(try reader.bits(2, "hvcC chromaFormat"))
        try reader.skip(5, "hvcC reserved")
        bitDepthLuma = UInt8(try reader.bits(3, "hvcC bitDepthLumaMinus8")) + 8
        try reader.skip(5, "hvcC reserved")
        bitDepthChroma = UInt8(try reader.bits(3, "hvcC bitDepthChromaMinus8")) + 8
        averageFrameRate = UInt16(try reader.bits(16, "hvcC avgFrameRate"))
        constantFrameRate = UInt8(try reader.bits(2, "hvcC constantFrameRate"))
        numTemporalLayers = UInt8(try reader.bits(3, "hvcC numTemporalLayers"))
        temporalIDNested = try reader.flag("hvcC temporalIdNested")
        lengthSize = try reader.bits(2, "hvcC lengthSizeMinusOne") + 1
        try AVCC.checkLengthSize(lengthSize)
        let arrayCount = try reader.bits(8, "hvcC numOfArrays")
        for index in 0..<arrayCount {
            let complete = try reader.flag("hvcC array_completeness[\(index)]")
            try reader.skip(1, "hvcC reserved")
            let type = HEVCNALUnitType(rawValue: UInt8(try reader.bits(6, "hvcC NAL_unit_type[\(index)]")))
            let count = try reader.bits(16, "hvcC numNalus[\(index)]")
            var units: [HEVCNALUnit] = []
            for unitIndex in 0..<count {
                let length = try reader.bits(16, "hvcC nalUnitLength[\(index)][\(unitIndex)]")
                guard length * 8 <= reader.bitsLeft else { throw BitstreamError.truncated("hvcC nalUnit[\(index)][\(unitIndex)]") }
                let start = reader.bitPosition / 8
                units.append(try HEVCNALUnit(bytes[start..<(start + length)]))
                try reader.skip(length * 8, "hvcC nalUnit")
            }
            arrays.append(NALUnitArray(complete: complete, type: type, units: units))
        }
    }

    /// Builds a record from parameter-set units (and any SEI to carry), as FFmpeg's MP4 muxer
    /// does: profile, tier, level, chroma format, bit depths, temporal layers and nesting from the
    /// first SPS, `min_spatial_segmentation_idc` from its VUI, one array per type in the order
    /// VPS, SPS, PPS, prefix SEI, suffix SEI, marked complete when `complete` (for `hvc1`).
    ///
    /// Throws when there is no VPS, SPS or PPS, the first SPS does not parse, `lengthSize` is not
    /// 1, 2 or 4, or a unit is longer than 65535 bytes.
    public init(units: [HEVCNALUnit], lengthSize: Int = 4, complete: Bool = true) throws(BitstreamError) {
        try AVCC.checkLengthSize(lengthSize)
        for type in [HEVCNALUnitType.vps, .sps, .pps] where !units.contains(where: { $0.type == type }) {
            throw BitstreamError.malformed("hvcC needs a \(type)")
        }
        for unit in units where unit.bytes.count > 0xFFFF {
            throw BitstreamError.invalidValue(field: "hvcC nalUnitLength", value: Int64(unit.bytes.count), allowed: "2...65535")
        }
        let sps = try HEVCSPS(units.first { $0.type == .sps }!)
        profileTierLevel = sps.profileTierLevel
        minSpatialSegmentation = sps.vui?.minSpatialSegmentation ?? 0
        chromaFormat = UInt8(sps.chromaFormatIdc)
        bitDepthLuma = UInt8(sps.bitDepthLuma)
        bitDepthChroma = UInt8(sps.bitDepthChroma)
        numTemporalLayers = UInt8(sps.maxSubLayers)
        temporalIDNested = sps.temporalIDNesting
        self.lengthSize = lengthSize
        for type in [HEVCNALUnitType.vps, .sps, .pps, .prefixSEI, .suffixSEI] {
            let matching = units.filter { $0.type == type }
            if !matching.isEmpty { arrays.append(NALUnitArray(complete: complete, type: type, units: matching)) }
        }
    }

    /// The `hvcC` box payload; counts and lengths that do not fit their fields (only possible after
    /// editing the properties) are truncated to the field width.
    public func serialized() -> [UInt8] {
        var output = [configurationVersion] + profileTierLevel.recordBytes
        output.append(0xF0 | UInt8(truncatingIfNeeded: minSpatialSegmentation >> 8) & 0x0F)
        output.append(UInt8(truncatingIfNeeded: minSpatialSegmentation))
        output.append(0xFC | parallelismType & 0x03)
        output.append(0xFC | chromaFormat & 0x03)
        output.append(0xF8 | (bitDepthLuma &- 8) & 0x07)
        output.append(0xF8 | (bitDepthChroma &- 8) & 0x07)
        output.append(UInt8(truncatingIfNeeded: averageFrameRate >> 8))
        output.append(UInt8(truncatingIfNeeded: averageFrameRate))
        output.append(
            (constantFrameRate & 0x03) << 6 | (numTemporalLayers & 0x07) << 3 | (temporalIDNested ? 0x04 : 0)
                | UInt8(truncatingIfNeeded: lengthSize - 1) & 0x03)
        output.append(UInt8(truncatingIfNeeded: arrays.count))
        for array in arrays {
            output.append((array.complete ? 0x80 : 0) | array.type.rawValue & 0x3F)
            output.append(UInt8(truncatingIfNeeded: array.units.count >> 8))
            output.append(UInt8(truncatingIfNeeded: array.units.count))
            for unit in array.units {
                output.append(UInt8(truncatingIfNeeded: unit.bytes.count >> 8))
                output.append(UInt8(truncatingIfNeeded: unit.bytes.count))
                output.append(contentsOf: unit.bytes)
            }
        }
        return output
    }
}
