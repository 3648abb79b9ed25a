/// The bits a frame code carries: a 32-bit frame index, a 48-bit capture time in microseconds
/// (two's complement) and a CRC-16 over both, whitened so no payload is a flat block.
package struct FrameCodePayload: Sendable, Equatable {
    /// The frame index modulo 2³².
    package var index: UInt32
    /// The capture time in microseconds, kept to 48 bits (±4.4 years).
    package var captureMicroseconds: Int64

    /// The 96 payload bits in drawing order (true = white).
    package func bits() -> [Bool] {
        var bytes = dataBytes()
        let crc = Self.crc16(bytes)
        bytes.append(UInt8(crc >> 8))
        bytes.append(UInt8(crc & 0xFF))
        var bits = [Bool]()
        bits.reserveCapacity(FrameCodeLayout.bitCount)
        for (byteIndex, byte) in bytes.enumerated() {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = (byte >> UInt8(shift)) & 1 == 1
                bits.append(bit != Self.whitening(byteIndex * 8 + (7 - shift)))
            }
        }
        return bits
    }

    /// Decodes 96 bits read from a picture; nil when the count is wrong or the checksum fails.
    package init?(bits: [Bool]) {
        guard bits.count == FrameCodeLayout.bitCount else { return nil }
        var bytes = [UInt8](repeating: 0, count: bits.count / 8)
        for (position, bit) in bits.enumerated() where bit != Self.whitening(position) {
            bytes[position / 8] |= 0x80 >> UInt8(position % 8)
        }
        let crc = UInt16(bytes[10]) << 8 | UInt16(bytes[11])
        guard Self.crc16(Array(bytes[0..<10])) == crc else { return nil }
        var index: UInt32 = 0
        for byte in bytes[0..<4] { index = index << 8 | UInt32(byte) }
        var raw: UInt64 = 0
        for byte in bytes[4..<10] { raw = raw << 8 | UInt64(byte) }
        // Sign-extend the 48-bit two's complement value.
        let micros = Int64(bitPattern: raw << 16) >> 16
        self.init(index: index, captureMicroseconds: micros)
    }

    /// Creates a payload from its fields.
    package init(index: UInt32, captureMicroseconds: Int64) {
        self.index = index
        self.captureMicroseconds = captureMicroseconds
    }

    /// Index and time as the 10 bytes the checksum covers (big-endian).
    private func dataBytes() -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(12)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: index >> UInt32(shift))) }
        let raw = UInt64(bitPattern: captureMicroseconds)
        for shift in stride(from: 40, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: raw >> UInt64(shift))) }
        return bytes
    }

    /// The whitening bit for payload position `position`: a checkerboard over the data cells.
    private static func whitening(_ position: Int) -> Bool {
        let column = position % FrameCodeLayout.dataColumns, row = position / FrameCodeLayout.dataColumns
        return (column + row) % 2 == 0
    }

    /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF).
    package static func crc16(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
