#if os(Linux)
import Foundation
import OnAirCore

/// A segment file's failed call: the error to report and the system's error number.
struct SegmentFileError: Error {
    /// What the recording reports.
    let error: SinkError
    /// `errno` of the call.
    let code: Int32
    /// The file system is full (or the user's quota is): the recording can wait for room.
    var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
}

/// One segment file opened for writing with POSIX calls, so that each part can be synced to
/// the disk (`fsync`) and not only handed to the kernel: what survives a pulled plug.
final class SegmentFile {
    /// The file's path.
    let path: String
    private var descriptor: Int32
    /// Bytes written so far.
    private(set) var size: Int64 = 0

    /// Creates `path` (and its folders); refuses to replace a file already there.
    init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw SinkError.writeFailed(destination: path, reason: "cannot create its folder: \(error.localizedDescription)")
            }
        }
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure(path, "open") }
        // The new name itself survives a power cut only once its folder is synced.
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            Foundation.close(folder)
        }
    }

    deinit {
        if descriptor >= 0 { Foundation.close(descriptor) }
    }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    func write(_ bytes: [UInt8]) throws {
        guard descriptor >= 0 else { throw SinkError.writeFailed(destination: path, reason: "written after close") }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, "write")
            }
            offset += written
        }
        size += Int64(bytes.count)
    }

    /// Syncs what was written to the disk.
    func sync() throws {
        guard descriptor >= 0 else { return }
        guard fsync(descriptor) == 0 else { throw Self.failure(path, "fsync") }
    }

    /// Syncs and closes the file.
    func close() throws {
        guard descriptor >= 0 else { return }
        defer { descriptor = -1 }
        try sync()
        guard Foundation.close(descriptor) == 0 else { throw Self.failure(path, "close") }
    }

    private static func failure(_ path: String, _ operation: String) -> SegmentFileError {
        let code = errno
        return SegmentFileError(
            error: .writeFailed(destination: path, reason: "\(operation): \(String(cString: strerror(code)))"), code: code)
    }
}
#endif
