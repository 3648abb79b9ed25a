/// An H.264 encoder as a session drives it: frames in, packets out, live bitrate changes.
///
/// Implementations (libavcodec, VideoToolbox) are used from one thread at a time.
package protocol VideoEncoding: AnyObject {
    /// The settings in force.
    var settings: VideoEncoderSettings { get }
    /// A human-readable account of which encoder runs and why (e.g. "libx264 (h264_vaapi: no device)").
    var summary: String { get }
    /// Encodes one frame; `forceKeyFrame` makes it an IDR. Returns the packets ready now.
    func encode(_ frame: VideoFrame, forceKeyFrame: Bool) throws -> [EncodedPacket]
    /// Drains the packets still inside the encoder.
    func flush() throws -> [EncodedPacket]
    /// Changes the average bitrate and data-rate limits without a new encoder.
    func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) throws
}

/// An AAC encoder as a session drives it: PCM in any layout and chunk size in, packets out.
package protocol AudioEncoding: AnyObject {
    /// The settings in force.
    var settings: AudioEncoderSettings { get }
    /// Encodes a run of samples. Returns the packets ready now.
    func encode(_ buffer: PCMBuffer) throws -> [EncodedPacket]
    /// Encodes what is buffered (padding the last frame) and drains the encoder.
    func flush() throws -> [EncodedPacket]
}
