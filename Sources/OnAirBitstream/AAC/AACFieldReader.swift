/// A `BitReader` whose reads throw `BitstreamError` as a typed error, for the AAC parsers.
///
/// Every read is bounds-checked by the underlying `BitReader`; this wrapper only narrows the
/// error type and adds a non-consuming peek.
struct AACFieldReader {
    /// The wrapped reader.
    private(set) var reader: BitReader

    /// Creates a reader positioned at the first bit of `bytes`.
    init(_ bytes: some Collection<UInt8>) {
        reader = BitReader(bytes)
    }

    /// The index of the next bit to read.
    var bitPosition: Int { reader.bitPosition }

    /// Bits not yet read.
    var bitsLeft: Int { reader.bitsLeft }

    /// Reads `count` bits (0…32) as an unsigned number.
    mutating func read(_ count: Int, _ field: String) throws(BitstreamError) -> Int {
        do {
            return try reader.int(count, field)
        } catch let error as BitstreamError {
            throw error
        } catch {
            throw .malformed(field)
        }
    }

    /// Reads one bit as a flag.
    mutating func flag(_ field: String) throws(BitstreamError) -> Bool {
        try read(1, field) == 1
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int, _ field: String) throws(BitstreamError) {
        guard count >= 0, count <= reader.bitsLeft else { throw .truncated(field) }
        do {
            try reader.skip(count, field)
        } catch {
            throw .truncated(field)
        }
    }

    /// Reads `count` bits without consuming them, or `nil` when fewer bits are left.
    func peek(_ count: Int) -> Int? {
        guard count <= reader.bitsLeft else { return nil }
        var copy = reader
        return try? copy.int(count)
    }

    /// Reads `count` bits (any length) into an opaque bit string.
    mutating func readBits(_ count: Int, _ field: String) throws(BitstreamError) -> AACBitString {
        guard count >= 0, count <= reader.bitsLeft else { throw .truncated(field) }
        var result = AACBitString()
        var remaining = count
        while remaining > 0 {
            let take = min(remaining, 32)
            result.append(UInt64(try read(take, field)), bits: take)
            remaining -= take
        }
        return result
    }

    /// Skips to the next byte boundary, counted from the first byte of the input.
    mutating func alignToByte() {
        reader.alignToByte()
    }
}
