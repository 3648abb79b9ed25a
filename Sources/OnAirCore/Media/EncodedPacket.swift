/// One compressed unit out of an encoder: an H.264 access unit (Annex-B, SPS/PPS before every IDR)
/// or one raw AAC frame (no ADTS header).
///
/// The payload is held once, in an immutable reference-counted `MediaBuffer` (often the encoder's
/// own packet buffer, wrapped without a copy), and shared by every sink the packet goes to; it is
/// freed when the last sink lets go of the packet. `form` says how the bytes are framed. A sink that
/// needs another form asks for it (`OnAirBitstream`'s `converted(to:)`): the conversion is made
/// once per packet and form and shared by every sink that needs that form.
package struct EncodedPacket: Sendable {
    /// Video or audio.
    public var mediaType: MediaType
    /// The codec of the payload.
    public var codec: MediaCodec
    /// The compressed bytes, shared and never written after the packet is made.
    package private(set) var payload: MediaBuffer
    /// How the payload is framed (Annex-B or length-prefixed, parameter sets in-band or not).
    public var form: BitstreamForm
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
    /// Conversions of this payload to other forms, shared by every copy of the packet.
    package private(set) var conversions = PacketConversions()

    /// Creates a packet from bytes (the array is shared, not copied). `form` defaults to what the
    /// encoders produce: Annex-B with parameter sets in-band for H.264, raw frames for AAC.
    public init(
        mediaType: MediaType, codec: MediaCodec, data: [UInt8], pts: MediaTime, dts: MediaTime,
        duration: MediaTime, isKeyframe: Bool, formatDescription: FormatDescription?,
        form: BitstreamForm? = nil
    ) {
        self.init(
            mediaType: mediaType, codec: codec, payload: MediaBuffer(bytes: data), pts: pts, dts: dts,
            duration: duration, isKeyframe: isKeyframe, formatDescription: formatDescription, form: form)
    }

    /// Creates a packet over an existing payload buffer, without copying it.
    package init(
        mediaType: MediaType, codec: MediaCodec, payload: MediaBuffer, pts: MediaTime, dts: MediaTime,
        duration: MediaTime, isKeyframe: Bool, formatDescription: FormatDescription?,
        form: BitstreamForm? = nil
    ) {
        self.mediaType = mediaType
        self.codec = codec
        self.payload = payload
        self.form = form ?? BitstreamForm.default(for: codec)
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.formatDescription = formatDescription
    }

    /// The payload's size in bytes (no copy).
    public var byteCount: Int { payload.count }

    /// The compressed bytes as an array: free when the packet was made from an array, a copy when
    /// the payload is a native buffer (hot paths use `payload.withUnsafeBytes`). Setting replaces the
    /// payload and forgets conversions of the old one.
    public var data: [UInt8] {
        get { payload.bytes }
        set {
            payload = MediaBuffer(bytes: newValue)
            conversions = PacketConversions()
        }
    }
}
