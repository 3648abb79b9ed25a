import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The data plane: pooled, reference-counted frame buffers travel source → encoder → sinks
/// without copies and go back to their pool when the last holder lets go.
@Suite struct DataPlaneTests {
    /// Delivers `count` frames from `pool`, as fast as the session takes them.
    final class PooledSource: CaptureSource, @unchecked Sendable {
        let name = "pooled"
        let mediaTypes: Set<MediaType> = [.video]
        let pool: VideoFramePool
        let count: Int
        private let done = DispatchGroup()

        init(pool: VideoFramePool, count: Int) {
            self.pool = pool
            self.count = count
        }

        func start(clock: CaptureClock, handlers: CaptureHandlers) throws {
            done.startThread(named: "test.pooled") { [self] in
                for index in 0..<count {
                    let frame = pool.makeFrame(pts: MediaTime(value: Int64(index), timescale: 1000))
                    frame.planes[0].withUnsafeMutableBytes { $0.storeBytes(of: UInt32(index), as: UInt32.self) }
                    handlers.video(frame)
                }
                handlers.ended(nil)
            }
        }

        func stop() { done.wait() }
    }

    /// A stand-in encoder whose packets carry the frame's own buffer as their payload, so that the
    /// buffer's life follows the packet through every sink.
    final class PassThroughEncoder: VideoEncoding {
        let settings: VideoEncoderSettings
        let summary = "pass-through"
        init(settings: VideoEncoderSettings) { self.settings = settings }
        func encode(_ frame: VideoFrame, forceKeyFrame: Bool) throws -> [EncodedPacket] {
            [
                EncodedPacket(
                    mediaType: .video, codec: .h264, payload: frame.planes[0].buffer, pts: frame.pts, dts: frame.pts,
                    duration: MediaTime(value: 1, timescale: 1000), isKeyframe: true, formatDescription: nil,
                    form: .raw)
            ]
        }
        func flush() throws -> [EncodedPacket] { [] }
        func setBitRate(average: Int, dataRateLimits: [DataRateLimit]) throws {}
    }

    /// Counts packets, checks their payload is the frame it came from, and keeps the last `keep`.
    final class HoldingSink: PacketSink, @unchecked Sendable {
        let destination: String
        let keep: Int
        private let lock = NSLock()
        private var held: [EncodedPacket] = []
        private(set) var written = 0
        private(set) var mismatches = 0

        init(_ name: String, keep: Int) {
            destination = name
            self.keep = keep
        }

        func write(_ packet: EncodedPacket) throws {
            let index = packet.payload.withUnsafeBytes { $0.load(as: UInt32.self) }
            lock.withLock {
                if Int64(index) != packet.pts.value { mismatches += 1 }
                written += 1
                if keep > 0 {
                    held.append(packet)
                    if held.count > keep { held.removeFirst() }
                }
            }
        }

        func finish() throws {}

        /// Lets go of the packets kept.
        func release() { lock.withLock { held.removeAll() } }

        var heldPackets: [EncodedPacket] { lock.withLock { held } }
    }

    @Test func poolStaysBoundedThroughALiveSessionWithThreeSinks() throws {
        let frames = 10_000
        let pool = VideoFramePool(width: 64, height: 48, pixelFormat: .yuv420p, maximumIdle: 64)
        let settings = VideoEncoderSettings(width: 64, height: 48)
        var configuration = LiveSession.Configuration(video: settings, audio: nil)
        configuration.dropLateVideo = false
        configuration.sinkQueueCapacity = 8
        let sinks = [HoldingSink("a", keep: 0), HoldingSink("b", keep: 0), HoldingSink("c", keep: 1)]
        let source = PooledSource(pool: pool, count: frames)
        let session = try LiveSession(
            configuration: configuration, sources: [source], sinks: sinks,
            videoEncoder: PassThroughEncoder(settings: settings), audioEncoder: nil)
        try session.start()
        #expect(session.waitForSources(timeout: 300))
        try session.stop()

        for sink in sinks {
            #expect(sink.written == frames, "\(sink.destination)")
            #expect(sink.mismatches == 0, "\(sink.destination): payload not the frame's own bytes")
        }
        let counts = pool.pool.counts
        // At most: the frame in the source's hands, the video queue (4), the encoder's, the sink
        // queues' window (8, shared by all three), one being written per sink and one kept.
        let bound = 1 + configuration.videoQueueCapacity + 1 + configuration.sinkQueueCapacity + sinks.count + 1
        #expect(counts.peakLive <= bound, "peak \(counts.peakLive) live buffers for \(frames) frames")
        #expect(counts.allocated <= bound)

        // Only the packet sink "c" still holds is alive: the last frame's buffer, shared, not copied.
        #expect(pool.pool.counts.live == 1)
        do {
            let last = try #require(sinks[2].heldPackets.last)
            #expect(last.pts.value == Int64(frames - 1))
            #expect(last.payload.baseAddress != nil)
        }
        // The buffer goes back to its pool when the last sink is done with it.
        sinks[2].release()
        #expect(pool.pool.counts.live == 0)
        #expect(pool.pool.counts.allocated == counts.allocated)
    }

    @Test func aPooledFrameReturnsOnlyWhenItsLastHolderLetsGo() {
        let pool = VideoFramePool(width: 64, height: 48, pixelFormat: .yuv420p)
        var frame: VideoFrame? = pool.makeFrame(pts: .zero)
        var copy: VideoFrame? = frame
        var packet: EncodedPacket? = EncodedPacket(
            mediaType: .video, codec: .h264, payload: frame!.planes[0].buffer,
            pts: .zero, dts: .zero, duration: .zero, isKeyframe: true,
            formatDescription: nil, form: .raw)
        #expect(pool.pool.counts.live == 1)
        frame = nil
        copy = nil
        #expect(pool.pool.counts.live == 1, "the packet still holds the buffer")
        packet = nil
        #expect(pool.pool.counts.live == 0)
        _ = (frame, copy, packet)
        // Steady state: the block is reused, nothing new is allocated.
        for index in 0..<100 { _ = pool.makeFrame(pts: MediaTime(value: Int64(index), timescale: 30)) }
        #expect(pool.pool.counts.allocated == 1)
    }

    @Test func wrappedMemoryIsReleasedOnceByItsOwnersCallback() {
        let released = ReleaseCounter()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 7, count: 16)
        var buffer: MediaBuffer? = MediaBuffer(wrapping: memory, count: 16) { pointer in
            released.add()
            pointer.deallocate()
        }
        var plane: VideoFrame.Plane? = VideoFrame.Plane(buffer: buffer!, offset: 4, byteCount: 8, bytesPerRow: 8)
        buffer = nil
        #expect(plane?.bytes == [UInt8](repeating: 7, count: 8))
        #expect(released.count == 0)
        plane = nil
        #expect(released.count == 1)
        _ = (buffer, plane)
    }

    @Test func arrayPlanesKeepTheirOldBehaviour() {
        var frame = VideoFrame(width: 4, height: 2, pixelFormat: .yuv420p, pts: .zero)
        for index in 0..<8 { frame.planes[0].bytes[index] = UInt8(index) }
        #expect(frame.planes[0].bytes == [0, 1, 2, 3, 4, 5, 6, 7])
        frame.planes[0].bytes.removeLast(4)
        #expect(frame.layoutProblem() != nil)
        var buffer = PCMBuffer(
            sampleFormat: .s16, isPlanar: false, sampleRate: 48_000, channels: 1, frameCount: 4,
            planes: [[1, 0, 2, 0, 3, 0, 4, 0]], pts: .zero)
        #expect(buffer.prefix(frames: 2).frameCount == 2)
        buffer.planes[0] = [9, 9]
        #expect(buffer.layoutProblem() != nil)
    }

    @Test func synthesizedFramesComeFromThePoolAndGoBack() throws {
        let video = try SyntheticVideo(width: 64, height: 48, frameRate: 30)
        let pool = VideoFramePool(width: 64, height: 48, pixelFormat: .yuv420p)
        for index in 0..<50 {
            let pooled = video.frame(index: index, captureTime: MediaTime(value: Int64(index), timescale: 30), pool: pool)
            let fresh = video.frame(index: index, captureTime: MediaTime(value: Int64(index), timescale: 30))
            #expect(pooled.planes == fresh.planes)
        }
        #expect(pool.pool.counts.live == 0)
        #expect(pool.pool.counts.allocated == 1)
    }
}

/// A thread-safe counter for release callbacks.
final class ReleaseCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
