/// A minimal Annex-B splitter for the encoder's own output (finds NAL units between start codes).
///
/// Only used on bytes our encoder just produced; the full bounds-checked parsers live in OnAirBitstream.
enum AnnexBUnits {
    /// The NAL units in `data` without their start codes.
    static func split(_ data: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var index = 0, start: Int? = nil
        while index + 2 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                if let s = start {
                    var end = index
                    while end > s, data[end - 1] == 0 { end -= 1 }   // trailing zero of a 4-byte start code
                    units.append(data[s..<end])
                }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let s = start, s < data.count { units.append(data[s..<data.count]) }
        return units
    }

    /// The `nal_unit_type` (low five bits of the first byte) of a unit.
    static func type(_ unit: ArraySlice<UInt8>) -> Int { unit.first.map { Int($0 & 0x1F) } ?? -1 }

    /// `units` joined with 4-byte start codes.
    static func join(_ units: [[UInt8]]) -> [UInt8] {
        units.flatMap { [0, 0, 0, 1] + $0 }
    }
}
