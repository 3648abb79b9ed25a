#if os(Linux)
import OnAirCore

/// A PCM buffer mixed down to one channel of `Float` samples (channel average), for analysis.
struct MonoSamples: Sendable {
    /// The mixed samples, nominally −1…1.
    let values: [Float]
    /// Samples per second.
    let sampleRate: Int
    /// The time of the first sample in seconds.
    let startTime: Double

    /// Mixes `buffer` down; throws when its planes do not match its layout.
    init(_ buffer: PCMBuffer) throws(SyncError) {
        // Bound the count first so that the size arithmetic in `layoutProblem()` cannot overflow.
        guard (0...(1 << 40)).contains(buffer.frameCount) else {
            throw .malformedAudio("frameCount must be 0…2⁴⁰, got \(buffer.frameCount)")
        }
        if let problem = buffer.layoutProblem() { throw .malformedAudio(problem) }
        let channels = buffer.channels, frames = buffer.frameCount
        let width = buffer.sampleFormat.bytesPerSample
        var mixed = [Float](repeating: 0, count: frames)
        for channel in 0..<channels {
            let plane = buffer.isPlanar ? buffer.planes[channel] : buffer.planes[0]
            let step = buffer.isPlanar ? width : width * channels
            let first = buffer.isPlanar ? 0 : channel * width
            plane.withUnsafeBufferPointer { bytes in
                for frame in 0..<frames {
                    mixed[frame] += Self.decode(bytes, at: first + frame * step, format: buffer.sampleFormat)
                }
            }
        }
        let scale = 1 / Float(channels)
        values = mixed.map { $0 * scale }
        sampleRate = buffer.sampleRate
        startTime = buffer.pts.seconds
    }

    /// One little-endian sample at byte `offset`, scaled to −1…1.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, format: PCMSampleFormat) -> Float {
        switch format {
        case .s16:
            let raw = UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
            return Float(Int16(bitPattern: raw)) / 32768
        case .s32, .f32:
            var raw = UInt32(bytes[offset])
            raw |= UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return format == .f32 ? Float(bitPattern: raw) : Float(Int32(bitPattern: raw)) / 2_147_483_648
        }
    }
}
#endif
