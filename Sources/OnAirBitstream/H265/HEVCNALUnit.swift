/// One H.265/HEVC NAL unit: the two-byte header and its payload, still carrying
/// emulation-prevention bytes, without a start code or length prefix.
public struct HEVCNALUnit: Sendable, Equatable {
    /// The two header bytes followed by the escaped payload.
    public var bytes: [UInt8]

    /// Wraps `bytes` as a NAL unit, rejecting fewer than two bytes, a set `forbidden_zero_bit` and
    /// a `nuh_temporal_id_plus1` of zero.
    public init(_ bytes: [UInt8]) throws(BitstreamError) {
        guard bytes.count >= 2 else { throw BitstreamError.truncated("HEVC NAL unit header") }
        guard bytes[0] & 0x80 == 0 else {
            throw BitstreamError.invalidValue(field: "forbidden_zero_bit", value: 1, allowed: "0")
        }
        guard bytes[1] & 0x07 != 0 else {
            throw BitstreamError.invalidValue(field: "nuh_temporal_id_plus1", value: 0, allowed: "1...7")
        }
        self.bytes = bytes
    }

    /// Wraps a slice of a larger buffer as a NAL unit (see `init(_:)`).
    public init(_ bytes: ArraySlice<UInt8>) throws(BitstreamError) {
        try self.init(Array(bytes))
    }

    /// The `nal_unit_type`.
    public var type: HEVCNALUnitType { HEVCNALUnitType(rawValue: bytes[0] >> 1) }

    /// The `nuh_layer_id` (0 for the base layer).
    public var layerID: UInt8 { (bytes[0] & 0x01) << 5 | bytes[1] >> 3 }

    /// The `TemporalId` (`nuh_temporal_id_plus1 - 1`).
    public var temporalID: UInt8 { (bytes[1] & 0x07) - 1 }

    /// The payload after the two header bytes with emulation-prevention bytes removed (the RBSP).
    public var rbsp: [UInt8] { EmulationPrevention.remove(bytes.dropFirst(2)) }
}
