/// One compressed unit out of an encoder: an H.264 access unit (Annex-B, SPS/PPS before every IDR)
/// or one raw AAC frame (no ADTS header).
public struct EncodedPacket: Sendable {
    /// Video or audio.
    public var mediaType: MediaType
    /// The codec of `data`.
    public var codec: MediaCodec
    /// The compressed bytes.
    public var data: [UInt8]
    /// Presentation time.
    public var pts: MediaTime
    /// Decode time (≤ pts; differs from it when frames are reordered).
    public var dts: MediaTime
    /// How long the packet plays.
    public var duration: MediaTime
    /// Whether decoding can start here (an IDR for H.264; every AAC packet).
    public var isKeyframe: Bool
    /// Parameter sets / AudioSpecificConfig; set on every keyframe and on the first audio packet.
    public var formatDescription: FormatDescription?

    /// Creates a packet.
    public init(mediaType: MediaType, codec: MediaCodec, data: [UInt8], pts: MediaTime, dts: MediaTime,
                duration: MediaTime, isKeyframe: Bool, formatDescription: FormatDescription?) {
        self.mediaType = mediaType
        self.codec = codec
        self.data = data
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.formatDescription = formatDescription
    }
}
