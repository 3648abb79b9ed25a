/// A run of uncompressed audio: `frameCount` samples per channel, interleaved in one plane or one
/// plane per channel, stamped with the capture time of its first sample.
public struct PCMBuffer: Sendable {
    /// The numeric type of each sample.
    public var sampleFormat: PCMSampleFormat
    /// Whether each channel has its own plane (true) or channels alternate within one plane (false).
    public var isPlanar: Bool
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Number of channels.
    public var channels: Int
    /// Samples per channel.
    public var frameCount: Int
    /// The sample bytes: one plane when interleaved, `channels` planes when planar.
    public var planes: [[UInt8]]
    /// The presentation time of the first sample.
    public var pts: MediaTime

    /// Creates a buffer from existing planes.
    public init(sampleFormat: PCMSampleFormat, isPlanar: Bool, sampleRate: Int, channels: Int,
                frameCount: Int, planes: [[UInt8]], pts: MediaTime) {
        self.sampleFormat = sampleFormat
        self.isPlanar = isPlanar
        self.sampleRate = sampleRate
        self.channels = channels
        self.frameCount = frameCount
        self.planes = planes
        self.pts = pts
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
        guard planes.count == expectedPlanes else { return "planes: expected \(expectedPlanes), got \(planes.count)" }
        for (index, plane) in planes.enumerated() where plane.count < bytesPerPlane {
            return "planes[\(index)] must hold ≥ \(bytesPerPlane) bytes, got \(plane.count)"
        }
        return nil
    }
}

extension PCMBuffer {
    /// The first `frames` samples per channel (all of them when `frames` ≥ `frameCount`).
    public func prefix(frames: Int) -> PCMBuffer {
        let kept = min(max(frames, 0), frameCount)
        var copy = self
        let bytesPerFrame = sampleFormat.bytesPerSample * (isPlanar ? 1 : channels)
        copy.planes = planes.map { Array($0.prefix(kept * bytesPerFrame)) }
        copy.frameCount = kept
        return copy
    }
}
