/// One SEI message from an SEI NAL unit (ITU-T H.264 7.3.2.3.1): its payload type and payload bytes.
package struct H264SEIMessage: Sendable, Equatable {
    /// `payloadType` (for example 0 buffering period, 1 picture timing, 5 user data unregistered,
    /// 6 recovery point).
    public var payloadType: Int
    /// The payload bytes (RBSP, emulation prevention removed), `payloadSize` of them.
    public var payload: [UInt8]

    /// The `payloadType` of a recovery point SEI.
    public static let recoveryPointType = 6

    /// Creates a message from its parts.
    public init(payloadType: Int, payload: [UInt8]) {
        self.payloadType = payloadType
        self.payload = payload
    }

    /// The messages in an SEI NAL unit (type 6), in order.
    ///
    /// Throws when the unit is not an SEI or a message's type, size or payload runs past the end.
    public static func messages(in unit: H264NALUnit) throws(BitstreamError) -> [H264SEIMessage] {
        guard unit.type == .sei else {
            throw BitstreamError.malformed("expected an SEI NAL unit, got \(unit.type)")
        }
        let rbsp = unit.rbsp
        var messages: [H264SEIMessage] = []
        var offset = 0
        // Stop at the rbsp_trailing_bits byte (0x80) or the end.
        while offset < rbsp.count && !(offset == rbsp.count - 1 && rbsp[offset] == 0x80) {
            let type = try readValue(rbsp, &offset, "SEI payloadType")
            let size = try readValue(rbsp, &offset, "SEI payloadSize")
            guard size <= rbsp.count - offset else { throw BitstreamError.truncated("SEI payload of type \(type)") }
            messages.append(H264SEIMessage(payloadType: type, payload: Array(rbsp[offset..<(offset + size)])))
            offset += size
        }
        return messages
    }

    /// `recovery_frame_cnt` of a recovery point message, or `nil` for other messages or a bad payload.
    public var recoveryFrameCount: Int? {
        guard payloadType == Self.recoveryPointType else { return nil }
        var reader = H264BitReader(payload)
        return try? reader.ue("recovery_frame_cnt", in: 0...65535)
    }

    /// Reads a `payloadType` or `payloadSize`: 0xFF bytes each adding 255, then a last byte.
    private static func readValue(_ bytes: [UInt8], _ offset: inout Int, _ field: String) throws(BitstreamError) -> Int {
        var value = 0
        while true {
            guard offset < bytes.count else { throw BitstreamError.truncated(field) }
            let byte = bytes[offset]
            offset += 1
            value += Int(byte)
            if byte != 0xFF { return value }
        }
    }
}
