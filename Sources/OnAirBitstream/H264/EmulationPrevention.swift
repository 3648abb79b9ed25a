/// Adds and removes H.264 emulation-prevention bytes (`0x03` after two zero bytes, ITU-T H.264 7.4.1).
package enum EmulationPrevention {
    /// Removes every `emulation_prevention_three_byte` from an escaped NAL unit payload.
    ///
    /// A `0x03` that follows two zero bytes is dropped and the zero count restarts, so
    /// `00 00 03 00 00 03` decodes to `00 00 00 00`.
    public static func remove<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        if let output = bytes.withContiguousStorageIfAvailable({ remove(UnsafeRawBufferPointer($0)) }) {
            return output
        }
        return Array(bytes).withUnsafeBytes { remove($0) }
    }

    /// Removes the emulation-prevention bytes of contiguous bytes: looks for `00 00 03` three
    /// bytes at a time (a byte above 3 rules out a pattern through it) and copies the runs between
    /// the dropped bytes whole, instead of looking at and appending every byte.
    static func remove(_ data: UnsafeRawBufferPointer) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(data.count)
        let count = data.count
        var runStart = 0
        var index = 0  // the first of the two zero bytes of a possible `00 00 03`
        while index + 2 < count {
            let third = data[index + 2]
            if third > 3 {
                index += 3
            } else if third == 0 {
                index += 1
            } else if third != 3 || data[index + 1] != 0 || data[index] != 0 {
                index += 3
            } else {
                // Keep up to the two zeros, drop the 03; the zero count restarts after it.
                output.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[runStart..<(index + 2)]))
                runStart = index + 3
                index = runStart
            }
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[runStart..<count]))
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
