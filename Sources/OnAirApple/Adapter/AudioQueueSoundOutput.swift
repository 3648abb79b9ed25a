// Apple-only: compiles to nothing on Linux except under the stub check (scripts/apple-stub-check.sh).
#if canImport(AudioToolbox) || ONAIR_APPLE_STUBS
#if canImport(AudioToolbox)
import AudioToolbox
#else
import AppleAPIStubs
#endif
import Foundation
import OnAirCore

/// The player's sound on an AudioToolbox output queue: decoded PCM in (any layout, at the rate and
/// channel count given), played as interleaved 32-bit floats. `AudioBufferRing` decides which
/// buffer to fill, what waits and what is dropped, and keeps the sound clock (`clock`: the end time
/// of the last buffer played), which the player can follow as `onair play` follows its sound output.
/// Not yet built on a Mac: see docs/APPLE.md.
public final class AudioQueueSoundOutput {
    private let state: SoundQueueState

    /// Opens an output queue of `bufferCount` buffers of `framesPerBuffer` frames (not started).
    public init(sampleRate: Int, channels: Int, bufferCount: Int = 3, framesPerBuffer: Int = 1024) throws {
        let bytesPerFrame = channels * MemoryLayout<Float>.size
        var format = AudioStreamBasicDescription(
            mSampleRate: Float64(sampleRate), mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked, mBytesPerPacket: UInt32(bytesPerFrame),
            mFramesPerPacket: 1, mBytesPerFrame: UInt32(bytesPerFrame), mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 32,
            mReserved: 0)
        state = SoundQueueState(
            ring: AudioBufferRing(
                bufferCount: bufferCount, framesPerBuffer: framesPerBuffer, bytesPerFrame: bytesPerFrame, sampleRate: sampleRate),
            channels: channels, sampleRate: sampleRate)
        var created: AudioQueueRef?
        var status = AudioQueueNewOutput(
            &format,
            { context, _, buffer in
                guard let context else { return }
                Unmanaged<SoundQueueState>.fromOpaque(context).takeUnretainedValue().completed(buffer)
            }, Unmanaged.passUnretained(state).toOpaque(), nil, nil, 0, &created)
        guard status == noErr, let queue = created else { throw AppleBackendError(operation: "AudioQueueNewOutput", status: status) }
        var buffers: [AudioQueueBufferRef] = []
        for _ in 0..<bufferCount {
            var buffer: AudioQueueBufferRef?
            status = AudioQueueAllocateBuffer(queue, UInt32(state.bufferByteSize), &buffer)
            guard status == noErr, let buffer else {
                AudioQueueDispose(queue, true)
                throw AppleBackendError(operation: "AudioQueueAllocateBuffer", status: status)
            }
            buffers.append(buffer)
        }
        state.attach(queue: queue, buffers: buffers)
    }

    deinit {
        state.dispose()
    }

    /// The sound clock: the end time of the last buffer the queue finished playing (nil before one).
    public var clock: MediaTime? { state.playhead }

    /// Sample frames dropped because the queue was not taking them fast enough.
    public var droppedFrames: Int { state.droppedFrames }

    /// Starts playing (what is queued, and what comes).
    public func start() throws {
        try state.start()
    }

    /// Queues a run of decoded samples; throws when its rate or channel count is not the queue's.
    public func play(_ buffer: PCMBuffer) throws {
        try state.play(buffer)
    }

    /// Plays out what is held (the last buffer possibly partial).
    public func drain() {
        state.drain()
    }
}

/// The queue, its buffers and the ring, shared with the queue's callback thread under a lock.
/// Unchecked Sendable: an AudioQueue (C object) shared with its callback thread; every var under its lock
final class SoundQueueState: @unchecked Sendable {
    private let lock = NSLock()
    private var ring: AudioBufferRing
    private let channels: Int
    private let sampleRate: Int
    private var queue: AudioQueueRef?
    private var buffers: [AudioQueueBufferRef] = []

    init(ring: AudioBufferRing, channels: Int, sampleRate: Int) {
        self.ring = ring
        self.channels = channels
        self.sampleRate = sampleRate
    }

    var bufferByteSize: Int { ring.bufferByteSize }

    var playhead: MediaTime? {
        lock.lock()
        defer { lock.unlock() }
        return ring.playhead
    }

    var droppedFrames: Int {
        lock.lock()
        defer { lock.unlock() }
        return ring.droppedFrames
    }

    func attach(queue: AudioQueueRef, buffers: [AudioQueueBufferRef]) {
        lock.lock()
        defer { lock.unlock() }
        self.queue = queue
        self.buffers = buffers
    }

    func start() throws {
        lock.lock()
        defer { lock.unlock() }
        guard let queue else { return }
        let status = AudioQueueStart(queue, nil)
        guard status == noErr else { throw AppleBackendError(operation: "AudioQueueStart", status: status) }
    }

    func play(_ buffer: PCMBuffer) throws {
        guard buffer.sampleRate == sampleRate, buffer.channels == channels else {
            throw AppleBackendError(
                operation: "sound output",
                detail: "\(buffer.sampleRate) Hz × \(buffer.channels) given, the queue plays \(sampleRate) Hz × \(channels)")
        }
        if let problem = buffer.layoutProblem() { throw AppleBackendError(operation: "sound output", detail: problem) }
        let floats = AACPacketizer.interleavedFloats(buffer)
        let bytes = floats.withUnsafeBytes { Array($0) }
        lock.lock()
        defer { lock.unlock() }
        enqueue(ring.enqueue(bytes, pts: buffer.pts))
    }

    func drain() {
        lock.lock()
        defer { lock.unlock() }
        enqueue(ring.drain())
    }

    /// The queue's callback: buffer `done` was played.
    func completed(_ done: AudioQueueBufferRef) {
        lock.lock()
        defer { lock.unlock() }
        guard let index = buffers.firstIndex(of: done) else { return }
        enqueue(ring.completed(index: index))
    }

    func dispose() {
        lock.lock()
        let queue = self.queue
        self.queue = nil
        lock.unlock()
        if let queue {
            AudioQueueStop(queue, true)
            AudioQueueDispose(queue, true)
        }
    }

    /// Copies each fill into its buffer and enqueues it (called with the lock held).
    private func enqueue(_ fills: [AudioBufferRing.Fill]) {
        guard let queue else { return }
        for fill in fills {
            let buffer = buffers[fill.index]
            fill.bytes.withUnsafeBytes { bytes in
                buffer.pointee.mAudioData.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            buffer.pointee.mAudioDataByteSize = UInt32(fill.bytes.count)
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        }
    }
}
#endif
