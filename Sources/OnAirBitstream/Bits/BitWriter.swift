/// Writes bits most-significant first into a growing byte buffer.
package struct BitWriter: Sendable {
    /// The bytes written so far; the last byte is zero-padded until it is full.
    public private(set) var bytes: [UInt8] = []
    /// The number of bits written.
    public private(set) var bitCount: Int = 0

    /// Creates an empty writer.
    public init() {}

    /// Appends the low `count` bits (0…64) of `value`.
    public mutating func write(_ value: UInt64, bits count: Int) {
        precondition(count >= 0 && count <= 64, "bit count out of range")
        var remaining = count
        while remaining > 0 {
            if bitCount % 8 == 0 { bytes.append(0) }
            let free = 8 - bitCount % 8
            let take = min(free, remaining)
            let chunk = UInt8(truncatingIfNeeded: (value >> UInt64(remaining - take)) & ((1 << UInt64(take)) - 1))
            bytes[bytes.count - 1] |= chunk << UInt8(free - take)
            remaining -= take
            bitCount += take
        }
    }

    /// Appends the low `count` bits of an integer.
    public mutating func write<I: BinaryInteger>(_ value: I, bits count: Int) {
        write(UInt64(truncatingIfNeeded: value), bits: count)
    }

    /// Appends one bit.
    public mutating func write(_ flag: Bool) {
        write(UInt64(flag ? 1 : 0), bits: 1)
    }

    /// Appends an unsigned Exp-Golomb code, ue(v).
    public mutating func writeUE(_ value: UInt32) {
        let codeNum = UInt64(value) + 1
        let length = 64 - codeNum.leadingZeroBitCount
        write(0, bits: length - 1)
        write(codeNum, bits: length)
    }

    /// Appends a signed Exp-Golomb code, se(v).
    public mutating func writeSE(_ value: Int32) {
        let mapped = value > 0 ? UInt32(2 * Int64(value) - 1) : UInt32(-2 * Int64(value))
        writeUE(mapped)
    }

    /// Appends `rbsp_trailing_bits()`: a one bit, then zero bits to the next byte boundary.
    public mutating func writeTrailingBits() {
        write(true)
        alignWithZeros()
    }

    /// Pads with zero bits to the next byte boundary.
    public mutating func alignWithZeros() {
        let pad = (8 - bitCount % 8) % 8
        write(0, bits: pad)
    }
}
