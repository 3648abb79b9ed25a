/// A run of uncompressed audio: `frameCount` samples per channel, interleaved in one plane or one
/// plane per channel, stamped with the capture time of its first sample.
///
/// The samples live in reference-counted `MediaBuffer`s (`planeBuffers`), shared when the
/// buffer is copied, as `VideoFrame`'s pixels are: a decoded or captured buffer stays in the
/// native buffer it was made in until the encoder has taken the samples in.
public struct PCMBuffer: Sendable {
    /// The numeric type of each sample.
    public var sampleFormat: SampleFormat
    /// Whether each channel has its own plane (true) or channels alternate within one plane (false).
    public var isPlanar: Bool
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Number of channels.
    public var channels: Int
    /// Samples per channel.
    public var frameCount: Int
    /// The sample storage: one buffer when interleaved, `channels` when planar; each plane starts
    /// at its buffer's first byte.
    package var planeBuffers: [MediaBuffer]
    /// The presentation time of the first sample.
    public var pts: MediaTime

    /// Creates a buffer from existing planes (the arrays are shared, not copied).
    public init(
        sampleFormat: SampleFormat, isPlanar: Bool, sampleRate: Int, channels: Int,
        frameCount: Int, planes: [[UInt8]], pts: MediaTime
    ) {
        self.init(
            sampleFormat: sampleFormat, isPlanar: isPlanar, sampleRate: sampleRate, channels: channels,
            frameCount: frameCount, planeBuffers: planes.map(MediaBuffer.init(bytes:)), pts: pts)
    }

    /// Creates a buffer over existing sample storage, without copying.
    package init(
        sampleFormat: SampleFormat, isPlanar: Bool, sampleRate: Int, channels: Int,
        frameCount: Int, planeBuffers: [MediaBuffer], pts: MediaTime
    ) {
        self.sampleFormat = sampleFormat
        self.isPlanar = isPlanar
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.planeBuffers = planeBuffers
        self.pts = pts
    }

    /// The sample bytes: one plane when interleaved, `channels` planes when planar. Reading copies
    /// them out of native or pooled storage (free for planes made from arrays); setting replaces
    /// the storage. Hot paths use `planeBuffers`.
    public var planes: [[UInt8]] {
        get { planeBuffers.map(\.bytes) }
        set { planeBuffers = newValue.map(MediaBuffer.init(bytes:)) }
    }

    /// The number of bytes each plane must hold.
    public var bytesPerPlane: Int {
        frameCount * sampleFormat.bytesPerSample * (isPlanar ? 1 : channels)
    }

    /// The duration of the buffer.
    public var duration: MediaTime {
        MediaTime(value: Int64(frameCount), timescale: Int32(clamping: sampleRate))
    }

    /// Why the planes do not match the declared layout, or nil when they do.
    public func layoutProblem() -> String? {
        guard sampleRate > 0 else { return "sampleRate must be > 0, got \(sampleRate)" }
        guard (1...64).contains(channels) else { return "channels must be 1…64, got \(channels)" }
        guard frameCount >= 0 else { return "frameCount must be ≥ 0, got \(frameCount)" }
        let expectedPlanes = isPlanar ? channels : 1
        guard planeBuffers.count == expectedPlanes else {
            return "planes: expected \(expectedPlanes), got \(planeBuffers.count)"
        }
        for (index, plane) in planeBuffers.enumerated() where plane.count < bytesPerPlane {
            return "planes[\(index)] must hold ≥ \(bytesPerPlane) bytes, got \(plane.count)"
        }
        return nil
    }
}

extension PCMBuffer {
    /// The first `frames` samples per channel (all of them when `frames` ≥ `frameCount`); shares
    /// the storage.
    public func prefix(frames: Int) -> PCMBuffer {
        var copy = self
        copy.frameCount = min(max(frames, 0), frameCount)
        return copy
    }
}
