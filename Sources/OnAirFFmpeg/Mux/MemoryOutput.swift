#if os(Linux)
import CFFmpeg
import OnAirCore

/// Where a muxer writes when its output is memory rather than a file or a connection: the bytes
/// collect here and the owner takes them after each packet (`ContainerWriter(output:)`).
///
/// The container header (what `avformat_write_header` wrote: an MP4's ftyp+moov, nothing for
/// MPEG-TS) is kept apart in `header`, for streams that give it to each new reader first.
package final class MemoryOutput {
    let context: UnsafeMutablePointer<AVIOContext>
    private var collected: [UInt8] = []
    /// The bytes written by the container header, once it has been written.
    package private(set) var header: [UInt8]?

    /// Creates an empty output.
    package init() throws {
        let size = 32 * 1024
        guard let buffer = av_malloc(size)?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(code: onair_averror(12), operation: "allocate a memory output")
        }
        var made: UnsafeMutablePointer<AVIOContext>?
        made = avio_alloc_context(
            buffer, Int32(size), 1, nil, nil,
            { opaque, bytes, count in
                guard let opaque, let bytes, count > 0 else { return count }
                let output = Unmanaged<MemoryOutput>.fromOpaque(opaque).takeUnretainedValue()
                output.collected.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
                return count
            }, nil)
        guard let made else {
            var unused: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(buffer)
            av_freep(&unused)
            throw FFmpegError(code: onair_averror(12), operation: "allocate a memory output")
        }
        context = made
        // The context holds its owner unretained: the owner frees the context in deinit.
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }

    /// Everything written since the last call (buffered bytes are flushed first).
    package func take() -> [UInt8] {
        avio_flush(context)
        defer { collected = [] }
        return collected
    }

    /// Called by the writer right after the container header: what was written so far is the header.
    func markHeader() {
        header = take()
    }
}
#endif
