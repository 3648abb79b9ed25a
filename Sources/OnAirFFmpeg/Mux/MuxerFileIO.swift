#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// The files one muxer writes, opened and closed through its `AVFormatContext`'s `io_open` and
/// `io_close2`: the output itself and every file the muxer opens on its own (HLS segments and
/// playlists, the second pass of an MP4 with its index in front). So the result of every close is
/// seen — a write error FFmpeg keeps in the `AVIOContext` comes out only there, and the HLS muxer
/// drops what its closes return — and `WriteFaults` can make the writes fail, for tests.
///
/// Use it on the muxer's thread. The owner keeps it alive until the context is freed.
final class MuxerFileIO {
    /// The output as the user named it, for messages.
    let destination: String
    /// Set when a `WriteFaults` injection covers the output.
    let fault: WriteFaultState?
    /// The first failed close of a file the muxer opened itself (the output's own close is returned).
    private(set) var failure: FFmpegError?
    /// Files the muxer opened and has not closed: context → path.
    private var openFiles: [UnsafeMutableRawPointer: String] = [:]

    /// Takes over `context`'s file opening and closing; `destination` names the output in messages.
    init(context: UnsafeMutablePointer<AVFormatContext>, destination: String) {
        self.destination = destination
        fault = WriteFaults.state(for: destination)
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = { context, pb, url, flags, options in
            guard let io = MuxerFileIO.owner(of: context) else {
                return MuxerFileIO.defaults.open(context, pb, url, flags, options)
            }
            return io.open(context, pb, url.map { String(cString: $0) } ?? "", flags, options)
        }
        context.pointee.io_close2 = { context, pb in
            guard let io = MuxerFileIO.owner(of: context) else { return MuxerFileIO.defaults.close(context, pb) }
            return io.close(context, pb, own: false)
        }
    }

    /// Opens the output itself for writing (`avio_open2` through the same path as the muxer's files).
    func openOutput(_ context: UnsafeMutablePointer<AVFormatContext>) throws {
        var pb: UnsafeMutablePointer<AVIOContext>?
        try check(
            open(context, &pb, context.pointee.url.map { String(cString: $0) } ?? destination, AVIO_FLAG_WRITE, nil),
            "open \(destination) for writing")
        context.pointee.pb = pb
    }

    /// Closes the output itself; returns a write error kept in its context, else the close's own result.
    func closeOutput(_ context: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        guard let pb = context.pointee.pb else { return 0 }
        context.pointee.pb = nil
        return close(context, pb, own: true)
    }

    /// The writer has reached `moment` (for `WriteFaults`).
    func enter(_ moment: WriteMoment) {
        fault?.enter(moment)
    }

    private func open(
        _ context: UnsafeMutablePointer<AVFormatContext>?,
        _ pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, _ url: String, _ flags: Int32,
        _ options: UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 {
        let writing = (flags & AVIO_FLAG_WRITE) != 0
        if writing, let fault, fault.failsOpen() { return onair_averror(fault.errorNumber) }
        let status = url.withCString { Self.defaults.open(context, pb, $0, flags, options) }
        guard status >= 0, let opened = pb?.pointee else { return status }
        openFiles[UnsafeMutableRawPointer(opened)] = url
        if writing, let fault { FaultyWrites.install(on: opened, fault: fault) }
        return status
    }

    private func close(
        _ context: UnsafeMutablePointer<AVFormatContext>?, _ pb: UnsafeMutablePointer<AVIOContext>?,
        own: Bool
    ) -> Int32 {
        guard let pb else { return 0 }
        let path = openFiles.removeValue(forKey: UnsafeMutableRawPointer(pb)) ?? destination
        let writing = pb.pointee.write_flag != 0
        if writing { avio_flush(pb) }  // through the fault hook, if any: what waits in the buffer
        FaultyWrites.remove(from: pb)
        var status = Self.defaults.close(context, pb)  // avio_close: the kept write error, else the close's
        if writing, status >= 0, let fault, fault.failsClose() { status = onair_averror(fault.errorNumber) }
        if !own, status < 0, failure == nil {
            failure = FFmpegError(code: status, operation: "close \(path) (written for \(destination))")
        }
        return status
    }

    private static func owner(of context: UnsafeMutablePointer<AVFormatContext>?) -> MuxerFileIO? {
        guard let opaque = context?.pointee.opaque else { return nil }
        return Unmanaged<MuxerFileIO>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// libavformat's own `io_open` and `io_close2`, as a new context has them.
    private static let defaults: (open: IOOpen, close: IOClose) = {
        guard let context = avformat_alloc_context() else { fatalError("avformat_alloc_context failed") }
        defer { avformat_free_context(context) }
        guard let open = context.pointee.io_open, let close = context.pointee.io_close2 else {
            fatalError("libavformat has no default io_open/io_close2")
        }
        return (open, close)
    }()

    private typealias IOOpen =
        @convention(c) (
            UnsafeMutablePointer<AVFormatContext>?,
            UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
            UnsafePointer<CChar>?, Int32,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32
    private typealias IOClose =
        @convention(c) (
            UnsafeMutablePointer<AVFormatContext>?,
            UnsafeMutablePointer<AVIOContext>?
        ) -> Int32
}
#endif
