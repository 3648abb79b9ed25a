/// Reads and writes H.265/HEVC NAL units as an Annex-B byte stream (start codes) and as
/// length-prefixed samples (ISO/IEC 14496-15 `hvc1`/`hev1`, as in MP4 and Matroska).
public enum HEVCByteStream {
    /// Splits an Annex-B byte stream into NAL units (start codes of three or four bytes), skipping
    /// units too short for the two-byte header or with the `forbidden_zero_bit` set.
    public static func split(_ data: [UInt8]) -> [HEVCNALUnit] {
        AnnexB.nalUnitRanges(in: data).compactMap { range in try? HEVCNALUnit(data[range]) }
    }

    /// Splits `units` into access units (ITU-T H.265 7.4.2.4.4): one starts at the first unit after
    /// a picture's slices that is an AUD, VPS, SPS, PPS or prefix SEI, or at a slice whose
    /// `first_slice_segment_in_pic_flag` is set.
    public static func accessUnits(_ units: [HEVCNALUnit]) -> [[HEVCNALUnit]] {
        var result: [[HEVCNALUnit]] = []
        var current: [HEVCNALUnit] = []
        var sawSlice = false
        for unit in units {
            let type = unit.type
            let firstSlice = type.isVCL && unit.bytes.count > 2 && unit.bytes[2] & 0x80 != 0
            if !current.isEmpty, (sawSlice && type.startsAccessUnit) || firstSlice && sawSlice {
                result.append(current)
                current = []
                sawSlice = false
            }
            current.append(unit)
            if type.isVCL { sawSlice = true }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Writes `units` as an Annex-B byte stream with the start codes libx265 uses: four bytes for
    /// the first unit of each access unit and for every VPS, SPS, PPS and AUD, three for the others.
    /// So libx265 output split with `split(_:)` joins back byte for byte.
    public static func joinAnnexB(_ units: [HEVCNALUnit]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(units.reduce(0) { $0 + $1.bytes.count + 4 })
        for accessUnit in accessUnits(units) {
            for (index, unit) in accessUnit.enumerated() {
                let long = index == 0 || unit.type.isParameterSet || unit.type == .accessUnitDelimiter
                output.append(contentsOf: long ? AnnexB.longStartCode : AnnexB.shortStartCode)
                output.append(contentsOf: unit.bytes)
            }
        }
        return output
    }

    /// The NAL units of one length-prefixed sample.
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4, when a length or a unit runs past the end of the
    /// sample, and when a unit is not a valid NAL unit (see `HEVCNALUnit.init(_:)`).
    public static func units(inSample sample: [UInt8], lengthSize: Int) throws(BitstreamError) -> [HEVCNALUnit] {
        var units: [HEVCNALUnit] = []
        for range in try LengthPrefixedFraming.ranges(in: sample, lengthSize: lengthSize, label: "HEVC") {
            units.append(try HEVCNALUnit(sample[range]))
        }
        return units
    }

    /// Writes `units` as one length-prefixed sample with `lengthSize`-byte lengths.
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4 or a unit is too long for it.
    public static func sample(from units: [HEVCNALUnit], lengthSize: Int) throws(BitstreamError) -> [UInt8] {
        try LengthPrefixedFraming.sample(from: units.map(\.bytes), lengthSize: lengthSize)
    }

    /// Converts one length-prefixed sample (one access unit) to Annex-B, putting `parameterSets`
    /// (VPS, SPS, PPS, as an `hvcC` record holds them) in front of an IRAP picture that does not
    /// carry its own, so that every keyframe of the byte stream can be decoded from there on.
    public static func annexB(
        fromSample sample: [UInt8], lengthSize: Int, parameterSets: [HEVCNALUnit] = []
    ) throws(BitstreamError) -> [UInt8] {
        var units = try units(inSample: sample, lengthSize: lengthSize)
        units = withParameterSets(units, parameterSets)
        return joinAnnexB(units)
    }

    /// Converts Annex-B bytes (one access unit) to one length-prefixed sample; with
    /// `parameterSetsInBand` false, VPS/SPS/PPS units are left out (they live in the `hvcC` record),
    /// and access-unit delimiters are always left out.
    public static func sample(
        fromAnnexB annexB: [UInt8], lengthSize: Int, parameterSetsInBand: Bool
    ) throws(BitstreamError) -> [UInt8] {
        let units = split(annexB).filter {
            $0.type != .accessUnitDelimiter && (parameterSetsInBand || !$0.type.isParameterSet)
        }
        return try sample(from: units, lengthSize: lengthSize)
    }

    /// `units` (one access unit) with `parameterSets` inserted before its first slice when that
    /// slice is an IRAP picture and the unit has no VPS, SPS or PPS of its own; unchanged otherwise.
    public static func withParameterSets(_ units: [HEVCNALUnit], _ parameterSets: [HEVCNALUnit]) -> [HEVCNALUnit] {
        guard !parameterSets.isEmpty, let first = units.firstIndex(where: { $0.type.isVCL }), units[first].type.isIRAP,
            !units[..<first].contains(where: { $0.type.isParameterSet })
        else { return units }
        var result = units
        // After an access-unit delimiter, which must come first.
        let at = result.first?.type == .accessUnitDelimiter ? 1 : 0
        result.insert(contentsOf: parameterSets.filter { $0.type.isParameterSet }, at: at)
        return result
    }
}
