import OnAirCore

/// An audio encoder that also hands every PCM buffer it encodes to `tap` — how the WebRTC face
/// gets the capture's samples for its one Opus encode beside the session's AAC, without a second
/// capture. The tap must not block (it queues the buffer for another thread).
package final class OpusAudioTap: AudioEncoding {
    private let wrapped: any AudioEncoding
    private let tap: (PCMBuffer) -> Void

    /// Wraps `encoder`; `tap` sees each buffer before the encoder does.
    public init(wrapping encoder: any AudioEncoding, tap: @escaping (PCMBuffer) -> Void) {
        wrapped = encoder
        self.tap = tap
    }

    /// The wrapped encoder's settings.
    public var settings: AudioEncoderSettings { wrapped.settings }

    /// Hands `buffer` to the tap, then encodes it with the wrapped encoder.
    public func encode(_ buffer: PCMBuffer) throws -> [EncodedPacket] {
        tap(buffer)
        return try wrapped.encode(buffer)
    }

    /// Flushes the wrapped encoder.
    public func flush() throws -> [EncodedPacket] { try wrapped.flush() }
}
