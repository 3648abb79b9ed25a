#if os(Linux)
/// The fixed 12-byte RTP header (RFC 3550 §5.1) of one packet as one viewer sends it: version 2,
/// no padding, no extension, no contributing sources.
package struct RTPHeader: Sendable, Hashable {
    /// The header's size in bytes.
    package static let size = 12

    /// The marker bit.
    package var marker: Bool
    /// The payload type (7 bits).
    package var payloadType: UInt8
    /// The sequence number.
    package var sequenceNumber: UInt16
    /// The RTP timestamp.
    package var timestamp: UInt32
    /// The synchronization source.
    package var ssrc: UInt32

    /// Creates a header.
    package init(marker: Bool, payloadType: UInt8, sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32) {
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
    }

    /// Calls `body` with the 12 header bytes, made on the stack (no allocation per packet).
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var words = (
            UInt32(0x8000_0000 | (marker ? 0x80_0000 : 0) | UInt32(payloadType & 0x7F) << 16 | UInt32(sequenceNumber)).bigEndian,
            timestamp.bigEndian, ssrc.bigEndian
        )
        return try Swift.withUnsafeBytes(of: &words) { try body($0) }
    }

    /// The 12 header bytes as an array.
    package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Reads the header at the start of `packet` (nil when shorter than 12 bytes or not version 2).
    package init?(parsing packet: [UInt8]) {
        guard packet.count >= Self.size, packet[0] >> 6 == 2 else { return nil }
        marker = packet[1] & 0x80 != 0
        payloadType = packet[1] & 0x7F
        sequenceNumber = UInt16(packet[2]) << 8 | UInt16(packet[3])
        timestamp = packet[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
        ssrc = packet[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
#endif
