import Foundation
import OnAirCore

/// An output file opened for appending bytes, closed on `close()` or when released.
final class FileOutput {
    private let handle: FileHandle
    let path: String

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(errno)))
        }
        self.handle = handle
    }

    /// Appends bytes.
    func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw SinkError.writeFailed(destination: path, reason: error.localizedDescription)
        }
    }

    /// Appends a buffer's bytes without copying them first.
    func write(_ buffer: MediaBuffer) throws {
        do {
            try buffer.withUnsafeBytes { try handle.write(contentsOf: $0) }
        } catch {
            throw SinkError.writeFailed(destination: path, reason: error.localizedDescription)
        }
    }

    /// Flushes to disk and closes.
    func close() throws {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw SinkError.writeFailed(destination: path, reason: error.localizedDescription)
        }
    }
}
