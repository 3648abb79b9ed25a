/// Adds and removes H.264 emulation-prevention bytes (`0x03` after two zero bytes, ITU-T H.264 7.4.1).
public enum EmulationPrevention {
    /// Removes every `emulation_prevention_three_byte` from an escaped NAL unit payload.
    ///
    /// A `0x03` that follows two zero bytes is dropped and the zero count restarts, so
    /// `00 00 03 00 00 03` decodes to `00 00 00 00`.
    public static func remove<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 0x03 {
                zeros = 0
                continue
            }
            output.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return output
    }

    /// Escapes an RBSP so that no `00 00 00`, `00 00 01`, `00 00 02` or `00 00 03` remains, and
    /// so that it does not end in a zero byte right after one.
    ///
    /// A `0x03` is inserted wherever two zero bytes are followed by a byte of 3 or less, and
    /// after a trailing `00 00` (as the spec requires when cabac_zero_words end a unit).
    public static func insert<C: Collection>(_ rbsp: C) -> [UInt8] where C.Element == UInt8 {
        var output: [UInt8] = []
        output.reserveCapacity(rbsp.count + rbsp.count / 64 + 1)
        var zeros = 0
        for byte in rbsp {
            if zeros >= 2 && byte <= 0x03 {
                output.append(0x03)
                zeros = 0
            }
            output.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        if zeros >= 2 { output.append(0x03) }
        return output
    }
}
