/// Reads bits most-significant first from a byte buffer, with a bounds check on every read.
///
/// Running past the end throws `BitstreamError.truncated` naming the field being read, so a
/// short or hostile buffer can never cause an over-read.
package struct BitReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The index of the next bit to read, counted from the first bit of `bytes`.
    public private(set) var bitPosition: Int = 0

    /// Creates a reader positioned at the first bit of `bytes`.
    public init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        self.bytes = Array(bytes)
    }

    /// Bits not yet read.
    public var bitsLeft: Int { bytes.count * 8 - bitPosition }

    /// Whether the position is on a byte boundary.
    public var isByteAligned: Bool { bitPosition % 8 == 0 }

    /// Reads one bit.
    public mutating func bit(_ field: @autoclosure () -> String = "bit") throws -> Bool {
        try bits(1, field()) == 1
    }

    /// Reads `count` bits (0…64) as an unsigned number.
    public mutating func bits(_ count: Int, _ field: @autoclosure () -> String = "bits") throws -> UInt64 {
        precondition(count >= 0 && count <= 64, "bit count out of range")
        guard count <= bitsLeft else { throw BitstreamError.truncated(field()) }
        var result: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let byte = bytes[bitPosition >> 3]
            let offset = bitPosition & 7
            let take = min(8 - offset, remaining)
            let shifted = (UInt64(byte) >> UInt64(8 - offset - take)) & ((1 << UInt64(take)) - 1)
            result = (result << UInt64(take)) | shifted
            remaining -= take
            bitPosition += take
        }
        return result
    }

    /// Reads `count` bits (0…32) as an `Int`.
    public mutating func int(_ count: Int, _ field: @autoclosure () -> String = "bits") throws -> Int {
        precondition(count <= 32, "use bits(_:) for wider fields")
        return Int(try bits(count, field()))
    }

    /// Skips `count` bits.
    public mutating func skip(_ count: Int, _ field: @autoclosure () -> String = "skipped bits") throws {
        guard count >= 0, count <= bitsLeft else { throw BitstreamError.truncated(field()) }
        bitPosition += count
    }

    /// Skips to the next byte boundary.
    public mutating func alignToByte() {
        bitPosition = min((bitPosition + 7) & ~7, bytes.count * 8)
    }

    /// Reads an unsigned Exp-Golomb code, ue(v). Values above 2^32 - 2 are rejected as malformed.
    public mutating func ue(_ field: @autoclosure () -> String = "ue(v)") throws -> UInt32 {
        var leadingZeros = 0
        while try !bit(field()) {
            leadingZeros += 1
            if leadingZeros > 31 {
                throw BitstreamError.malformed("\(field()): Exp-Golomb code longer than 32 bits")
            }
        }
        if leadingZeros == 0 { return 0 }
        let suffix = try bits(leadingZeros, field())
        let value = (UInt64(1) << UInt64(leadingZeros)) - 1 + suffix
        guard value <= UInt64(UInt32.max - 1) else {
            throw BitstreamError.malformed("\(field()): Exp-Golomb value out of range")
        }
        return UInt32(value)
    }

    /// Reads an unsigned Exp-Golomb code and checks that it lies in `range`.
    public mutating func ue(_ field: String, in range: ClosedRange<Int>) throws -> Int {
        let value = Int(try ue(field))
        guard range.contains(value) else {
            throw BitstreamError.invalidValue(
                field: field, value: Int64(value),
                allowed: "\(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// Reads a signed Exp-Golomb code, se(v).
    public mutating func se(_ field: @autoclosure () -> String = "se(v)") throws -> Int32 {
        let code = Int64(try ue(field()))
        let magnitude = (code + 1) / 2
        return Int32(code % 2 == 1 ? magnitude : -magnitude)
    }

    /// Reads a signed Exp-Golomb code and checks that it lies in `range`.
    public mutating func se(_ field: String, in range: ClosedRange<Int>) throws -> Int {
        let value = Int(try se(field))
        guard range.contains(value) else {
            throw BitstreamError.invalidValue(
                field: field, value: Int64(value),
                allowed: "\(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
