/// One ADTS frame found in a stream: its header and the bytes that follow it.
public struct ADTSFrame: Sendable, Equatable {
    /// The frame's header.
    public let header: ADTSHeader
    /// The bytes after the header (`header.payloadLength` of them): the raw_data_block(s),
    /// without the header's CRC word.
    public let payload: [UInt8]
    /// Where the frame starts in the parsed stream, in bytes.
    public let offset: Int

    /// Creates a frame from its parts.
    public init(header: ADTSHeader, payload: [UInt8], offset: Int) {
        self.header = header
        self.payload = payload
        self.offset = offset
    }

    /// The frame's bytes: header (with CRC words) followed by the payload.
    public func serialized() -> [UInt8] {
        header.serialized() + payload
    }
}
