import OnAirCore

/// The bookkeeping of an audio queue's fixed set of output buffers: which are free, which are
/// queued and what time each ends at, so that the sound's progress can serve as the playback
/// clock. PCM comes in any chunking; a free buffer is filled when a whole buffer's worth is held.
/// At most one ring's worth of samples waits beyond the queued buffers: older samples are dropped
/// (and counted) so that latency stays bounded. A pure value; the adapter allocates the buffers,
/// copies `Fill.bytes` into buffer `index`, enqueues it, and calls `completed(index:)` from the
/// queue's callback.
public struct AudioBufferRing: Sendable {
    /// One buffer to fill and enqueue.
    public struct Fill: Sendable, Equatable {
        /// Which buffer.
        public var index: Int
        /// The bytes to copy into it.
        public var bytes: [UInt8]
        /// The time of its first sample.
        public var pts: MediaTime
    }

    /// Buffers in the ring.
    public let bufferCount: Int
    /// Sample frames per buffer.
    public let framesPerBuffer: Int
    /// Bytes per sample frame (all channels).
    public let bytesPerFrame: Int
    /// Sample frames per second.
    public let sampleRate: Int
    private var free: [Int]
    private var queued: [(index: Int, end: MediaTime)] = []
    private var pending: [UInt8] = []
    private var pendingPTS = MediaTime.zero
    /// The end time of the last buffer the queue finished playing: the sound clock (nil before).
    public private(set) var playhead: MediaTime?
    /// Sample frames dropped because the queue was not taking them fast enough.
    public private(set) var droppedFrames = 0

    /// A ring of `bufferCount` buffers of `framesPerBuffer` frames of `bytesPerFrame` bytes at `sampleRate`.
    public init(bufferCount: Int = 3, framesPerBuffer: Int = 1024, bytesPerFrame: Int, sampleRate: Int) {
        self.bufferCount = max(1, bufferCount)
        self.framesPerBuffer = max(1, framesPerBuffer)
        self.bytesPerFrame = max(1, bytesPerFrame)
        self.sampleRate = max(1, sampleRate)
        free = Array(0..<self.bufferCount)
    }

    /// The bytes one buffer holds (what the adapter allocates per buffer).
    public var bufferByteSize: Int { framesPerBuffer * bytesPerFrame }

    /// Sample frames queued in buffers and not yet played.
    public var queuedFrames: Int { queued.count * framesPerBuffer }

    /// Sample frames held, not yet in a buffer.
    public var pendingFrames: Int { pending.count / bytesPerFrame }

    /// Takes interleaved samples starting at `pts` and returns the buffers to fill now.
    /// A `pts` that does not follow the samples held restarts the held samples from it.
    public mutating func enqueue(_ bytes: [UInt8], pts: MediaTime) -> [Fill] {
        let whole = bytes.count - bytes.count % bytesPerFrame
        if pending.isEmpty || abs((pts - pendingEnd).seconds) > Double(framesPerBuffer) / Double(sampleRate) {
            droppedFrames += pendingFrames
            pending.removeAll()
            pendingPTS = pts
        }
        pending.append(contentsOf: bytes[0..<whole])
        let fills = fillFree(partial: false)
        let limit = bufferCount * framesPerBuffer
        if pendingFrames > limit {
            let excess = pendingFrames - limit
            pending.removeFirst(excess * bytesPerFrame)
            pendingPTS = pendingPTS + frames(excess)
            droppedFrames += excess
        }
        return fills
    }

    /// The queue finished playing buffer `index`: it is free again and the clock moves to its end.
    /// Returns the buffers that can now be filled from held samples.
    public mutating func completed(index: Int) -> [Fill] {
        guard let position = queued.firstIndex(where: { $0.index == index }) else { return [] }
        playhead = queued[position].end
        queued.remove(at: position)
        free.append(index)
        return fillFree(partial: false)
    }

    /// Fills buffers with everything held, the last one possibly partial (at the end of the input).
    public mutating func drain() -> [Fill] { fillFree(partial: true) }

    private var pendingEnd: MediaTime { pendingPTS + frames(pendingFrames) }

    private func frames(_ count: Int) -> MediaTime { MediaTime(value: Int64(count), timescale: Int32(clamping: sampleRate)) }

    private mutating func fillFree(partial: Bool) -> [Fill] {
        var fills: [Fill] = []
        while !free.isEmpty, pending.count >= bufferByteSize || (partial && !pending.isEmpty) {
            let index = free.removeFirst()
            let count = min(bufferByteSize, pending.count)
            let fill = Fill(index: index, bytes: Array(pending[0..<count]), pts: pendingPTS)
            pending.removeFirst(count)
            let end = pendingPTS + frames(count / bytesPerFrame)
            pendingPTS = end
            queued.append((index, end))
            fills.append(fill)
        }
        return fills
    }
}
