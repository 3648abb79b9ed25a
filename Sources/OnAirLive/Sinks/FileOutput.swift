import Foundation
import OnAirCore

/// An output file opened for appending bytes, closed on `close()` or when released. Every call
/// that writes — each append, a rewrite in place, the flush to disk and the close — reports its
/// failure with the system's message.
///
/// The writer tells it the moment it is at (`startHeader`, `startPacket`, `startTrailer`), for the
/// `WriteFaults` test seam.
package final class FileOutput {
    private let handle: FileHandle
    package let path: String
    private var closed = false
    private let fault: WriteFaultState?

    /// Creates (or truncates) the file at `path`.
    package init(path: String) throws {
        self.path = path
        fault = WriteFaults.state(for: path)
        if let fault, fault.failsOpen() {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(fault.errorNumber)))
        }
        // open(2), as ffmpeg opens files: a symlink is followed (FileManager.createFile would
        // replace it with a new file), a device such as /dev/full is written as it is.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(errno)))
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
    }

    deinit {
        if !closed { try? handle.close() }
    }

    /// The writer is about to write its header.
    package func startHeader() {
        fault?.enter(.header)
    }

    /// The writer is about to write packet (or frame, or buffer) `index`, counted from 0.
    package func startPacket(_ index: Int) {
        fault?.enter(.packet(index))
    }

    /// The writer is about to complete the file (a header's sizes filled in at the end).
    package func startTrailer() {
        fault?.enter(.trailer)
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws {
        try attempt { try handle.write(contentsOf: bytes) }
    }

    /// Appends bytes.
    package func write(_ data: Data) throws {
        try attempt { try handle.write(contentsOf: data) }
    }

    /// Appends a buffer's bytes without copying them first.
    package func write(_ buffer: MediaBuffer) throws {
        try attempt { try buffer.withUnsafeBytes { try handle.write(contentsOf: $0) } }
    }

    /// Writes `data` at `offset` (a header completed at the end), then goes back to the end.
    package func write(_ data: Data, at offset: UInt64) throws {
        try attempt {
            let end = try handle.offset()
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: data)
            try handle.seek(toOffset: end)
        }
    }

    /// Flushes to disk and closes. A file that cannot be flushed to disk (a device such as
    /// `/dev/null`, a pipe) is only closed.
    package func close() throws {
        guard !closed else { return }
        closed = true
        do {
            fault?.enter(.close)
            if let fault, fault.failsClose() {
                try? handle.close()
                throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(fault.errorNumber)))
            }
            if fsync(handle.fileDescriptor) != 0, errno != EINVAL, errno != EROFS, errno != ENOTSUP {
                let reason = String(cString: strerror(errno))
                try? handle.close()
                throw SinkError.writeFailed(destination: path, reason: reason)
            }
            try handle.close()
        } catch let error as SinkError {
            throw error
        } catch {
            throw SinkError.writeFailed(destination: path, reason: Self.reason(error))
        }
    }

    /// Runs one write, failing it when a `WriteFaults` injection says so; any failure names the file.
    private func attempt(_ body: () throws -> Void) throws {
        if let fault, fault.failsWrite() {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(fault.errorNumber)))
        }
        do { try body() } catch { throw SinkError.writeFailed(destination: path, reason: Self.reason(error)) }
    }

    /// The system's message for a failed file operation ("No space left on device").
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        return error.localizedDescription
    }
}
