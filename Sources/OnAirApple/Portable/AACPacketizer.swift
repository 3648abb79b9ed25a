import OnAirCore

/// Cuts PCM arriving in any chunking and layout into the 1024-sample frames an AAC encoder takes
/// (AudioConverter is handed one frame per packet it is asked for), as interleaved 32-bit floats,
/// each with its timestamp.
///
/// Timestamps come from the sample count on one timeline anchored at the first buffer's `pts`:
/// frame `n` starts at `anchor + n × 1024 / sampleRate`, exactly, whatever the chunk sizes.
/// A buffer whose `pts` is more than one frame away from where the timeline says it should be
/// starts a new timeline (a capture gap or clock jump), after the samples held so far are padded
/// out to a whole frame. `flush()` pads the last partial frame with silence.
public struct AACPacketizer: Sendable {
    /// One frame of encoder input.
    public struct Frame: Sendable, Equatable {
        /// `samplesPerFrame × channels` interleaved samples.
        public var samples: [Float]
        /// The time of the first sample.
        public var pts: MediaTime
        /// How many of the samples are input, the rest being silence added by a flush or a gap.
        public var inputFrameCount: Int
    }

    /// Samples per channel in one AAC-LC frame.
    public static let samplesPerFrame = 1024

    /// Samples per second per channel.
    public let sampleRate: Int
    /// Channels.
    public let channels: Int
    private var pending: [Float] = []
    private var anchor: MediaTime?
    private var framesOut: Int64 = 0
    /// Times a buffer's timestamp moved the timeline.
    public private(set) var timelineRestarts = 0

    /// A packetizer for `settings`' rate and channel count (the input must match them).
    public init(settings: AudioEncoderSettings) {
        sampleRate = settings.sampleRate
        channels = settings.channels
    }

    /// The duration of one frame.
    public var frameDuration: MediaTime { MediaTime(value: Int64(Self.samplesPerFrame), timescale: Int32(sampleRate)) }

    /// The timestamp of frame `index` of the current timeline.
    public func pts(ofFrame index: Int64) -> MediaTime {
        let start = anchor ?? .zero
        let offset = MediaTime(value: index * Int64(Self.samplesPerFrame), timescale: Int32(sampleRate))
        return start + offset
    }

    /// Takes a buffer (16- or 32-bit integer or float, planar or interleaved) and returns the
    /// whole frames now complete. Throws when its rate or channel count differs from the settings'
    /// or its planes do not hold what it declares.
    public mutating func append(_ buffer: PCMBuffer) throws(AppleBackendError) -> [Frame] {
        guard buffer.sampleRate == sampleRate, buffer.channels == channels else {
            throw AppleBackendError(
                operation: "AAC input",
                detail: "\(buffer.sampleRate) Hz × \(buffer.channels) channels given, "
                    + "the encoder takes \(sampleRate) Hz × \(channels) (convert before encoding)")
        }
        if let problem = buffer.layoutProblem() {
            throw AppleBackendError(operation: "AAC input", detail: problem)
        }
        guard buffer.frameCount > 0 else { return [] }
        var frames: [Frame] = []
        if anchor == nil {
            anchor = buffer.pts
        } else {
            let expected = pts(ofFrame: framesOut) + MediaTime(value: Int64(pending.count / channels), timescale: Int32(sampleRate))
            if abs((buffer.pts - expected).seconds) > frameDuration.seconds {
                frames += flush()
                anchor = buffer.pts
                framesOut = 0
                timelineRestarts += 1
            }
        }
        pending.append(contentsOf: Self.interleavedFloats(buffer))
        let frameLength = Self.samplesPerFrame * channels
        var offset = 0
        while pending.count - offset >= frameLength {
            frames.append(
                Frame(
                    samples: Array(pending[offset..<(offset + frameLength)]), pts: pts(ofFrame: framesOut),
                    inputFrameCount: Self.samplesPerFrame))
            framesOut += 1
            offset += frameLength
        }
        pending.removeFirst(offset)
        return frames
    }

    /// The last partial frame padded with silence, or nothing when no samples are held.
    public mutating func flush() -> [Frame] {
        guard !pending.isEmpty else { return [] }
        let input = pending.count / channels
        var samples = pending
        samples.append(contentsOf: repeatElement(0, count: Self.samplesPerFrame * channels - pending.count))
        pending.removeAll()
        let frame = Frame(samples: samples, pts: pts(ofFrame: framesOut), inputFrameCount: input)
        framesOut += 1
        return [frame]
    }

    /// The buffer's samples as interleaved floats in −1…1 (integers are scaled by their full range).
    static func interleavedFloats(_ buffer: PCMBuffer) -> [Float] {
        let channels = buffer.channels, count = buffer.frameCount
        let size = buffer.sampleFormat.bytesPerSample
        var output = [Float](repeating: 0, count: count * channels)
        for (planeIndex, plane) in buffer.planeBuffers.enumerated() {
            plane.withUnsafeBytes { bytes in
                let valuesInPlane = buffer.isPlanar ? count : count * channels
                for index in 0..<valuesInPlane {
                    let value: Float
                    switch buffer.sampleFormat {
                    case .s16: value = Float(bytes.loadUnaligned(fromByteOffset: index * size, as: Int16.self)) / 32_768
                    case .s32: value = Float(bytes.loadUnaligned(fromByteOffset: index * size, as: Int32.self)) / 2_147_483_648
                    case .f32: value = bytes.loadUnaligned(fromByteOffset: index * size, as: Float.self)
                    }
                    output[buffer.isPlanar ? index * channels + planeIndex : index] = value
                }
            }
        }
        return output
    }
}
