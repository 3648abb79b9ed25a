#if os(Linux)
import Foundation

/// A `--stats-json` file: one JSON object per line.
final class JSONLinesFile {
    private let handle: FileHandle
    private let encoder = JSONEncoder()

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw UsageError("cannot write --stats-json file \(path)")
        }
        self.handle = handle
        encoder.outputFormatting = [.sortedKeys]
    }

    /// Appends `value` as one line.
    func append<T: Encodable>(_ value: T) {
        if let data = try? encoder.encode(value) { handle.write(data + Data("\n".utf8)) }
    }

    /// Closes the file.
    func close() {
        try? handle.close()
    }
}
#endif
