#if os(Linux)
import CFFmpeg
import OnAirCore

/// A muxer output that hands each chunk of the container to a Swift function instead of an
/// FFmpeg protocol: OnAir's own transports (SRT through libsrt) sit under libavformat's muxers
/// this way. Chunks are at most `packetSize` bytes (1316 = seven TS packets for SRT live mode).
package final class PacketOutput: Sendable {
    /// The largest chunk handed to `write`.
    package let packetSize: Int
    private let write: @Sendable (UnsafeRawBufferPointer) throws -> Void
    private let close: (@Sendable () -> Void)?
    private let firstFailure = Locked<(any Error)?>(nil)
    /// The first error `write` threw; the muxer only sees an I/O error code.
    package var failure: (any Error)? { firstFailure.current }

    /// Creates an output calling `write` with each chunk, on the thread that drives the muxer;
    /// `close` runs once when the muxer is done with it (after the trailer, or when abandoned).
    package init(
        packetSize: Int = 1316, write: @escaping @Sendable (UnsafeRawBufferPointer) throws -> Void,
        close: (@Sendable () -> Void)? = nil
    ) {
        self.packetSize = max(188, packetSize)
        self.write = write
        self.close = close
    }

    /// Makes the AVIOContext that calls `write`; freed with `release(_:)`.
    func makeContext() -> UnsafeMutablePointer<AVIOContext>? {
        guard let buffer = av_malloc(packetSize)?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard
            let context = avio_alloc_context(
                buffer, Int32(packetSize), 1, opaque, nil,
                { opaque, bytes, count in
                    guard let opaque, let bytes, count > 0 else { return 0 }
                    let output = Unmanaged<PacketOutput>.fromOpaque(opaque).takeUnretainedValue()
                    return output.deliver(UnsafeRawBufferPointer(start: bytes, count: Int(count))) ? count : onair_averror(5)
                }, nil)
        else {
            var unused: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(buffer)
            av_freep(&unused)
            return nil
        }
        context.pointee.max_packet_size = Int32(packetSize)
        return context
    }

    /// Frees a context from `makeContext` and its buffer (flushing nothing), then runs `close`.
    func release(_ context: UnsafeMutablePointer<AVIOContext>) {
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        av_freep(&pointer!.pointee.buffer)
        avio_context_free(&pointer)
        close?()
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard failure == nil else { return false }
        do {
            try write(bytes)
            return true
        } catch {
            firstFailure.withLock { $0 = error }
            return false
        }
    }
}
#endif
