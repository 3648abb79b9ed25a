/// Reads and writes AVCC samples: NAL units each preceded by a big-endian length of 1, 2 or 4
/// bytes, as stored in MP4 (ISO/IEC 14496-15) and produced by VideoToolbox.
public enum AVCC {
    /// The NAL-unit length sizes AVCC allows (`lengthSizeMinusOne` 0, 1 or 3).
    public static let allowedLengthSizes: Set<Int> = [1, 2, 4]

    /// The NAL units in one AVCC sample.
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4, when a length prefix or a unit runs past the
    /// end of the sample, and when a unit is empty or has its `forbidden_zero_bit` set.
    public static func units(in sample: [UInt8], lengthSize: Int) throws(BitstreamError) -> [H264NALUnit] {
        var units: [H264NALUnit] = []
        for range in try LengthPrefixedFraming.ranges(in: sample, lengthSize: lengthSize, label: "AVCC") {
            units.append(try H264NALUnit(sample[range]))
        }
        return units
    }

    /// Writes `units` as one AVCC sample with `lengthSize`-byte lengths.
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4 or when a unit is too long for it.
    public static func sample(from units: [H264NALUnit], lengthSize: Int) throws(BitstreamError) -> [UInt8] {
        try LengthPrefixedFraming.sample(from: units.map(\.bytes), lengthSize: lengthSize)
    }

    /// Converts one AVCC sample (one access unit) to Annex-B with x264's start codes
    /// (see `AnnexB.join(accessUnit:)`).
    public static func toAnnexB(_ sample: [UInt8], lengthSize: Int) throws(BitstreamError) -> [UInt8] {
        AnnexB.join(accessUnit: try units(in: sample, lengthSize: lengthSize))
    }

    /// Converts Annex-B bytes (typically one access unit) to one AVCC sample.
    ///
    /// Empty units and units with the `forbidden_zero_bit` set are dropped, as in `AnnexB.split(_:)`.
    public static func fromAnnexB(_ annexB: [UInt8], lengthSize: Int) throws(BitstreamError) -> [UInt8] {
        try sample(from: AnnexB.split(annexB), lengthSize: lengthSize)
    }

    /// Throws unless `lengthSize` is 1, 2 or 4.
    static func checkLengthSize(_ lengthSize: Int) throws(BitstreamError) {
        guard allowedLengthSizes.contains(lengthSize) else {
            throw BitstreamError.invalidValue(field: "AVCC length size", value: Int64(lengthSize), allowed: "1, 2 or 4")
        }
    }
}
