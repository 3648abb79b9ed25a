/// The framing of length-prefixed samples, shared by H.264's AVCC and H.265's `hvc1` samples: NAL
/// units each after a big-endian length of 1, 2 or 4 bytes.
enum LengthPrefixedFraming {
    /// The byte ranges of the units in `sample`; `label` names the form in errors ("AVCC", "HEVC").
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4, a length or a unit runs past the end, or a length is 0.
    static func ranges(in sample: [UInt8], lengthSize: Int, label: String) throws(BitstreamError) -> [Range<Int>] {
        try AVCC.checkLengthSize(lengthSize)
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < sample.count {
            guard sample.count - offset >= lengthSize else {
                throw BitstreamError.truncated("\(label) NAL unit length at offset \(offset)")
            }
            var length = 0
            for index in offset..<(offset + lengthSize) {
                length = length << 8 | Int(sample[index])
            }
            offset += lengthSize
            guard length <= sample.count - offset else {
                throw BitstreamError.truncated("\(label) NAL unit of \(length) bytes at offset \(offset - lengthSize)")
            }
            guard length > 0 else {
                throw BitstreamError.invalidValue(field: "\(label) NAL unit length", value: 0, allowed: "1 or more")
            }
            ranges.append(offset..<(offset + length))
            offset += length
        }
        return ranges
    }

    /// `units` each after a `lengthSize`-byte length.
    ///
    /// Throws when `lengthSize` is not 1, 2 or 4 or when a unit is too long for it.
    static func sample(from units: [[UInt8]], lengthSize: Int) throws(BitstreamError) -> [UInt8] {
        try AVCC.checkLengthSize(lengthSize)
        let limit = lengthSize == 4 ? Int(UInt32.max) : (1 << (8 * lengthSize)) - 1
        var output: [UInt8] = []
        output.reserveCapacity(units.reduce(0) { $0 + $1.count + lengthSize })
        for unit in units {
            let length = unit.count
            guard length <= limit else {
                throw BitstreamError.invalidValue(
                    field: "NAL unit length for \(lengthSize)-byte AVCC lengths",
                    value: Int64(length), allowed: "0...\(limit)")
            }
            for shift in stride(from: 8 * (lengthSize - 1), through: 0, by: -8) {
                output.append(UInt8(truncatingIfNeeded: length >> shift))
            }
            output.append(contentsOf: unit)
        }
        return output
    }
}
