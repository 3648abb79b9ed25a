/// The H.264 decoder configuration record stored in an MP4 `avcC` box (ISO/IEC 14496-15 5.3.3.1):
/// profile and level, the AVCC length size, and the SPS and PPS units.
package struct AVCDecoderConfigurationRecord: Sendable, Equatable {
    /// `configurationVersion` (always 1).
    public var configurationVersion: UInt8 = 1
    /// `AVCProfileIndication`: the SPS's `profile_idc`.
    public var profileIndication: UInt8 = 0
    /// `profile_compatibility`: the SPS's constraint-flag byte.
    public var profileCompatibility: UInt8 = 0
    /// `AVCLevelIndication`: the SPS's `level_idc`.
    public var levelIndication: UInt8 = 0
    /// The byte length of the NAL-unit length fields in samples (`lengthSizeMinusOne + 1`: 1, 2 or 4).
    public var lengthSize: Int = 4
    /// The sequence parameter set units (at most 31, each at most 65535 bytes).
    public var sequenceParameterSets: [H264NALUnit] = []
    /// The picture parameter set units (at most 255, each at most 65535 bytes).
    public var pictureParameterSets: [H264NALUnit] = []
    /// `chroma_format` from the High-profile extension, when present.
    public var chromaFormat: UInt8?
    /// `bit_depth_luma_minus8 + 8` from the High-profile extension, when present.
    public var bitDepthLuma: UInt8?
    /// `bit_depth_chroma_minus8 + 8` from the High-profile extension, when present.
    public var bitDepthChroma: UInt8?
    /// The SPS extension units (type 13) from the High-profile extension.
    public var sequenceParameterSetExtensions: [H264NALUnit] = []
    /// Bytes after the last field this type understands, kept so that `serialized()` reproduces them.
    public var trailingBytes: [UInt8] = []

    /// Profiles whose record carries no High-profile extension (Baseline, Main, Extended); every other
    /// profile has one, as FFmpeg writes it and later editions of ISO/IEC 14496-15 require.
    static let profilesWithoutExtension: Set<UInt8> = [66, 77, 88]

    /// Whether the High-profile extension (chroma format, bit depths, SPS extensions) is present.
    public var hasExtension: Bool { chromaFormat != nil }

    /// Parses an `avcC` box payload (without the box's size and type).
    ///
    /// Reserved bits are not checked and are written back as ones by `serialized()`.
    public init(parsing bytes: [UInt8]) throws(BitstreamError) {
        var reader = AVCCRecordReader(bytes)
        configurationVersion = try reader.byte("configurationVersion")
        guard configurationVersion == 1 else {
            throw BitstreamError.unsupported("avcC configurationVersion \(configurationVersion)")
        }
        profileIndication = try reader.byte("AVCProfileIndication")
        profileCompatibility = try reader.byte("profile_compatibility")
        levelIndication = try reader.byte("AVCLevelIndication")
        lengthSize = Int(try reader.byte("lengthSizeMinusOne") & 0x03) + 1
        try AVCC.checkLengthSize(lengthSize)
        let spsCount = Int(try reader.byte("numOfSequenceParameterSets") & 0x1F)
        sequenceParameterSets = try reader.units(spsCount, "sequenceParameterSet")
        let ppsCount = Int(try reader.byte("numOfPictureParameterSets"))
        pictureParameterSets = try reader.units(ppsCount, "pictureParameterSet")
        if !Self.profilesWithoutExtension.contains(profileIndication) && reader.remaining >= 4 {
            chromaFormat = try reader.byte("chroma_format") & 0x03
            bitDepthLuma = (try reader.byte("bit_depth_luma_minus8") & 0x07) + 8
            bitDepthChroma = (try reader.byte("bit_depth_chroma_minus8") & 0x07) + 8
            let extensionCount = Int(try reader.byte("numOfSequenceParameterSetExt"))
            sequenceParameterSetExtensions = try reader.units(extensionCount, "sequenceParameterSetExt")
        }
        trailingBytes = reader.rest()
    }

    /// Builds a record from parameter-set units; profile, compatibility and level come from the
    /// first SPS, and the High-profile extension is filled in from it for profiles other than
    /// Baseline, Main and Extended.
    ///
    /// Throws when there is no SPS, the first SPS does not parse, `lengthSize` is not 1, 2 or 4, or
    /// there are too many or too long units.
    public init(sps: [H264NALUnit], pps: [H264NALUnit], lengthSize: Int = 4) throws(BitstreamError) {
        try AVCC.checkLengthSize(lengthSize)
        guard let first = sps.first else { throw BitstreamError.malformed("avcC needs at least one SPS") }
        guard sps.count <= 31 else {
            throw BitstreamError.invalidValue(field: "numOfSequenceParameterSets", value: Int64(sps.count), allowed: "0...31")
        }
        guard pps.count <= 255 else {
            throw BitstreamError.invalidValue(field: "numOfPictureParameterSets", value: Int64(pps.count), allowed: "0...255")
        }
        for unit in sps + pps where unit.bytes.count > 0xFFFF {
            throw BitstreamError.invalidValue(
                field: "avcC parameter set length", value: Int64(unit.bytes.count),
                allowed: "1...65535")
        }
        let parsed = try H264SPS(first)
        self.lengthSize = lengthSize
        profileIndication = parsed.profileIdc
        profileCompatibility = parsed.constraintFlags
        levelIndication = parsed.levelIdc
        sequenceParameterSets = sps
        pictureParameterSets = pps
        if !Self.profilesWithoutExtension.contains(parsed.profileIdc) {
            chromaFormat = UInt8(parsed.chromaFormatIdc)
            bitDepthLuma = UInt8(parsed.bitDepthLuma)
            bitDepthChroma = UInt8(parsed.bitDepthChroma)
        }
    }

    /// The `avcC` box payload. Reserved bits are written as ones; counts and lengths that do not fit
    /// their fields (only possible after editing the properties) are truncated to the field width.
    public func serialized() -> [UInt8] {
        var output: [UInt8] = [
            configurationVersion, profileIndication, profileCompatibility, levelIndication,
            0xFC | UInt8(truncatingIfNeeded: lengthSize - 1) & 0x03,
            0xE0 | UInt8(truncatingIfNeeded: sequenceParameterSets.count) & 0x1F,
        ]
        Self.append(sequenceParameterSets, to: &output)
        output.append(UInt8(truncatingIfNeeded: pictureParameterSets.count))
        Self.append(pictureParameterSets, to: &output)
        if let chromaFormat {
            output.append(0xFC | chromaFormat & 0x03)
            output.append(0xF8 | UInt8(truncatingIfNeeded: Int(bitDepthLuma ?? 8) - 8) & 0x07)
            output.append(0xF8 | UInt8(truncatingIfNeeded: Int(bitDepthChroma ?? 8) - 8) & 0x07)
            output.append(UInt8(truncatingIfNeeded: sequenceParameterSetExtensions.count))
            Self.append(sequenceParameterSetExtensions, to: &output)
        }
        output.append(contentsOf: trailingBytes)
        return output
    }

    /// Appends units each preceded by a 16-bit length.
    private static func append(_ units: [H264NALUnit], to output: inout [UInt8]) {
        for unit in units {
            output.append(UInt8(truncatingIfNeeded: unit.bytes.count >> 8))
            output.append(UInt8(truncatingIfNeeded: unit.bytes.count))
            output.append(contentsOf: unit.bytes)
        }
    }
}
