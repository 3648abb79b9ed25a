/// The CRC-16 of ISO/IEC 11172-3 2.4.3.1 that ADTS uses: generator x^16 + x^15 + x^2 + 1
/// (0x8005), register preset to all ones, bits fed most-significant first, no final inversion.
struct ADTSCRCAccumulator {
    /// The current register value; after the last bit, the CRC.
    private(set) var value: UInt16 = 0xFFFF

    /// Feeds one bit.
    mutating func update(bit: Bool) {
        let feedback = (value & 0x8000 != 0) != bit
        value <<= 1
        if feedback { value ^= 0x8005 }
    }

    /// Feeds whole bytes.
    mutating func update(bytes: some Sequence<UInt8>) {
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                update(bit: (byte >> UInt8(shift)) & 1 == 1)
            }
        }
    }

    /// Feeds `count` bits of `bytes` starting at bit `start`, then zero bits up to `length`
    /// (a protected region longer than what is there is padded with zeros). Bits past the end
    /// of `bytes` count as zeros.
    mutating func update(bits bytes: [UInt8], start: Int, count: Int, paddedTo length: Int) {
        let total = max(count, length)
        for offset in 0..<max(0, total) {
            let position = start + offset
            var bit = false
            if offset < count, position >= 0, position / 8 < bytes.count {
                bit = (bytes[position / 8] >> UInt8(7 - position % 8)) & 1 == 1
            }
            update(bit: bit)
        }
    }
}
