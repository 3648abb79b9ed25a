/// A bounds-checked byte cursor for `avcC` records.
struct AVCCRecordReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Creates a cursor at the first byte.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Bytes not yet read.
    var remaining: Int { bytes.count - offset }

    /// Reads one byte.
    mutating func byte(_ field: String) throws(BitstreamError) -> UInt8 {
        guard offset < bytes.count else { throw BitstreamError.truncated("avcC \(field)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads `count` units, each preceded by a 16-bit length.
    mutating func units(_ count: Int, _ field: String) throws(BitstreamError) -> [H264NALUnit] {
        var units: [H264NALUnit] = []
        for index in 0..<count {
            let length = Int(try byte("\(field)Length[\(index)]")) << 8 | Int(try byte("\(field)Length[\(index)]"))
            guard length <= remaining else { throw BitstreamError.truncated("avcC \(field)[\(index)]") }
            units.append(try H264NALUnit(bytes[offset..<(offset + length)]))
            offset += length
        }
        return units
    }

    /// The unread bytes; the cursor moves to the end.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
