#if os(Linux)
import OnAirCore

/// A run of bytes of one served stream: one muxed packet (MPEG-TS) or fragment (MP4), shared by
/// every viewer without copying.
package struct ServeChunk: Sendable {
    /// The bytes.
    public var bytes: [UInt8]
    /// Whether a decoder can start here (the chunk begins with a video keyframe).
    public var isKeyframe: Bool
    /// Whether the chunk is the container header (an MP4 init segment), which every viewer needs first.
    public var isHeader: Bool
    /// The host clock (`systemUptime`) when the chunk was published, to measure a viewer's lag.
    public var published: Double
    /// The packet the bytes are, in the elementary form (nil for muxed chunks).
    public var packet: EncodedPacket?
    /// The packet as RTP, in the elementary form: made once by the stream's packetizer and
    /// shared by every RTSP viewer, each putting its own header on at send time.
    package var rtp: [RTPPacket] = []

    /// Creates a chunk.
    public init(
        bytes: [UInt8], isKeyframe: Bool, isHeader: Bool = false, published: Double, packet: EncodedPacket? = nil,
        rtp: [RTPPacket] = []
    ) {
        self.packet = packet
        self.rtp = rtp
        self.bytes = bytes
        self.isKeyframe = isKeyframe
        self.isHeader = isHeader
        self.published = published
    }
}
#endif
