/// Reads and writes the H.264 Annex-B byte stream: NAL units separated by `00 00 01` or
/// `00 00 00 01` start codes.
public enum AnnexB {
    /// The four-byte start code `00 00 00 01`.
    public static let longStartCode: [UInt8] = [0, 0, 0, 1]
    /// The three-byte start code `00 00 01`.
    public static let shortStartCode: [UInt8] = [0, 0, 1]

    /// The byte ranges of the NAL units in `data`, without their start codes.
    ///
    /// Both start-code lengths are recognised. A unit ends where `00 00 00` or `00 00 01` begins
    /// or where the data ends; zero bytes at its end (`trailing_zero_8bits`, or the first byte of a
    /// four-byte start code) are not part of it. Bytes before the first start code are ignored, and
    /// empty units are left out. Runs in one pass over the data.
    public static func nalUnitRanges(in data: [UInt8]) -> [Range<Int>] {
        data.withUnsafeBytes { nalUnitRanges(in: $0) }
    }

    /// The byte ranges of the NAL units in `data` (see `nalUnitRanges(in:)` on arrays), read in
    /// place: encoders look at their own packet buffers with it, without copying them.
    public static func nalUnitRanges(in data: UnsafeRawBufferPointer) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        let count = data.count
        guard var start = nextStartCode(in: data, from: 0).map({ $0 + 3 }) else { return ranges }
        while start <= count {
            // Find where this unit ends: the first 00 00 0x (x <= 1) at or after `start`.
            var end = count
            var index = start
            while index + 2 < count {
                let third = data[index + 2]
                if third > 1 {
                    index += 3
                } else if data[index + 1] != 0 {
                    index += 2
                } else if data[index] != 0 {
                    index += 1
                } else {
                    end = index
                    break
                }
            }
            var last = end
            while last > start && data[last - 1] == 0 { last -= 1 }
            if last > start { ranges.append(start..<last) }
            guard let next = nextStartCode(in: data, from: end) else { break }
            start = next + 3
        }
        return ranges
    }

    /// Splits an Annex-B byte stream into NAL units, skipping empty units and units whose
    /// `forbidden_zero_bit` is set.
    public static func split(_ data: [UInt8]) -> [H264NALUnit] {
        nalUnitRanges(in: data).compactMap { range in try? H264NALUnit(data[range]) }
    }

    /// Writes `units` as an Annex-B byte stream with the start codes x264 uses.
    ///
    /// x264 (encoder.c, `encoder_encapsulate_nals`) gives a four-byte start code to the first NAL
    /// unit of each access unit and to every SPS and PPS, and a three-byte one to all others
    /// (later slices, SEI after a parameter set). So an AUD, or an SEI or slice that opens an
    /// access unit, gets four bytes. Access-unit boundaries are found with
    /// `H264AccessUnitSplitter`, so x264 output split with `split(_:)` joins back byte for byte.
    /// (Checked by experiment with libx264 core 164 through ffmpeg 5.1 on 37 configurations,
    /// including AUD, slices, HRD SEI on every picture and B-frames: see the stream conformance
    /// tests.)
    public static func join(_ units: [H264NALUnit]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(units.reduce(0) { $0 + $1.bytes.count + 4 })
        for accessUnit in H264AccessUnitSplitter.split(units) {
            append(accessUnit: accessUnit.units, to: &output)
        }
        return output
    }

    /// Writes the units of one access unit with x264's start codes: four bytes for the first unit
    /// and for SPS and PPS, three bytes otherwise.
    public static func join(accessUnit units: [H264NALUnit]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(units.reduce(0) { $0 + $1.bytes.count + 4 })
        append(accessUnit: units, to: &output)
        return output
    }

    /// Appends one access unit's units with x264's start codes.
    static func append(accessUnit units: [H264NALUnit], to output: inout [UInt8]) {
        for (index, unit) in units.enumerated() {
            let long = index == 0 || unit.type == .sps || unit.type == .pps
            output.append(contentsOf: long ? longStartCode : shortStartCode)
            output.append(contentsOf: unit.bytes)
        }
    }

    /// The index of the first `00 00 01` at or after `from`, if any.
    static func nextStartCode(in data: UnsafeRawBufferPointer, from: Int) -> Int? {
        var index = max(from, 0)
        let count = data.count
        while index + 2 < count {
            let third = data[index + 2]
            if third > 1 {
                index += 3
            } else if third == 0 {
                index += 1
            } else if data[index + 1] != 0 || data[index] != 0 {
                index += 3
            } else {
                return index
            }
        }
        return nil
    }
}
