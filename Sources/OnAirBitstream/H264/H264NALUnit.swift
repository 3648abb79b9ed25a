/// One H.264 NAL unit: the one-byte header and its payload, still carrying emulation-prevention
/// bytes, without a start code or length prefix.
public struct H264NALUnit: Sendable, Equatable {
    /// The header byte followed by the escaped payload.
    public var bytes: [UInt8]

    /// Wraps `bytes` as a NAL unit, rejecting an empty buffer or a set `forbidden_zero_bit`.
    public init(_ bytes: [UInt8]) throws(BitstreamError) {
        guard let header = bytes.first else { throw BitstreamError.truncated("NAL unit header") }
        guard header & 0x80 == 0 else {
            throw BitstreamError.invalidValue(field: "forbidden_zero_bit", value: 1, allowed: "0")
        }
        self.bytes = bytes
    }

    /// Wraps a slice of a larger buffer as a NAL unit (see `init(_:)`).
    public init(_ bytes: ArraySlice<UInt8>) throws(BitstreamError) {
        try self.init(Array(bytes))
    }

    /// The `nal_unit_type`.
    public var type: H264NALUnitType { H264NALUnitType(rawValue: bytes.first ?? 0) }

    /// The `nal_ref_idc` (0…3); zero means the unit is not used for reference.
    public var nalRefIdc: UInt8 { ((bytes.first ?? 0) >> 5) & 0x03 }

    /// The payload after the header byte with emulation-prevention bytes removed (the RBSP).
    ///
    /// For types 14, 20 and 21 the three-byte header extension is part of this payload.
    public var rbsp: [UInt8] { EmulationPrevention.remove(bytes.dropFirst()) }
}
