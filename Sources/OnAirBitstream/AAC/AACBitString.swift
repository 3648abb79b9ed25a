/// A run of bits kept verbatim, so parts of a structure this package does not interpret can
/// still be written back bit-exactly.
public struct AACBitString: Sendable, Equatable, Hashable {
    /// The bits, most-significant first; the last byte is zero-padded.
    public private(set) var bytes: [UInt8] = []
    /// How many bits are held.
    public private(set) var count: Int = 0

    /// Creates an empty bit string.
    public init() {}

    /// Whether no bits are held.
    public var isEmpty: Bool { count == 0 }

    /// Appends the low `bits` bits (0…64) of `value`.
    mutating func append(_ value: UInt64, bits: Int) {
        guard bits > 0 else { return }
        for shift in stride(from: min(bits, 64) - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> UInt64(shift)) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }

    /// Writes the held bits to `writer`.
    func write(to writer: inout BitWriter) {
        var remaining = count
        var index = 0
        while remaining > 0 {
            let take = min(remaining, 8)
            writer.write(UInt64(bytes[index] >> UInt8(8 - take)), bits: take)
            remaining -= take
            index += 1
        }
    }

    /// Whether every held bit is zero.
    var isAllZero: Bool { bytes.allSatisfy { $0 == 0 } }
}
