/// A `BitReader` over an RBSP with typed-throwing reads and `more_rbsp_data()`, used by the H.264 parsers.
struct H264BitReader: Sendable {
    private var base: BitReader
    /// The bit index of the `rbsp_stop_one_bit`, or `nil` when the RBSP has no set bit at all.
    private let stopBit: Int?

    /// Creates a reader positioned at the first bit of `rbsp`.
    init(_ rbsp: [UInt8]) {
        base = BitReader(rbsp)
        if let last = rbsp.lastIndex(where: { $0 != 0 }) {
            stopBit = last * 8 + 7 - rbsp[last].trailingZeroBitCount
        } else {
            stopBit = nil
        }
    }

    /// The index of the next bit to read.
    var bitPosition: Int { base.bitPosition }

    /// Bits not yet read.
    var bitsLeft: Int { base.bitsLeft }

    /// Whether syntax elements remain before the `rbsp_stop_one_bit` (the spec's `more_rbsp_data()`).
    var moreRBSPData: Bool {
        guard let stopBit else { return false }
        return base.bitPosition < stopBit
    }

    /// Reads one flag.
    mutating func flag(_ field: String) throws(BitstreamError) -> Bool {
        try Self.typed { try base.bit(field) }
    }

    /// Reads `count` (0…32) bits as an unsigned number.
    mutating func bits(_ count: Int, _ field: String) throws(BitstreamError) -> Int {
        try Self.typed { Int(try base.bits(count, field)) }
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int, _ field: String) throws(BitstreamError) {
        try Self.typed { try base.skip(count, field) }
    }

    /// Reads ue(v) and checks that it lies in `range`.
    mutating func ue(_ field: String, in range: ClosedRange<Int>) throws(BitstreamError) -> Int {
        try Self.typed { try base.ue(field, in: range) }
    }

    /// Reads ue(v) without a range check (0…2^32 - 2).
    mutating func ue(_ field: String) throws(BitstreamError) -> Int {
        try Self.typed { Int(try base.ue(field)) }
    }

    /// Reads se(v) and checks that it lies in `range`.
    mutating func se(_ field: String, in range: ClosedRange<Int>) throws(BitstreamError) -> Int {
        try Self.typed { try base.se(field, in: range) }
    }

    /// Reads se(v) without a range check.
    mutating func se(_ field: String) throws(BitstreamError) -> Int {
        try Self.typed { Int(try base.se(field)) }
    }

    /// Runs a `BitReader` call and narrows whatever it throws to `BitstreamError`.
    private static func typed<T>(_ body: () throws -> T) throws(BitstreamError) -> T {
        do {
            return try body()
        } catch let error as BitstreamError {
            throw error
        } catch {
            throw BitstreamError.malformed("\(error)")
        }
    }
}
