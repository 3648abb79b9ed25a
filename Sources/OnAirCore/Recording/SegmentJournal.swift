import Foundation

/// Where each segment of a recording sits on the anchored time line (`AnchoredClock`), kept
/// beside the segments in one append-only text file per stream (`.onair-PATH.journal` in the
/// template's root): a name follows the wall clock, which steps, so `/list`, `/get` and retention
/// read a segment's start and duration here rather than from its name.
///
/// A line per event, fields split by tabs: `S`, the path relative to the root, the start on the
/// line and the wall clock at the opening (microseconds since 1970), the run (one id per
/// recorder) and the epoch (one more at each clock step); `E`, the path and the duration
/// (microseconds). Segments the journal does not know (older recordings, files put there by
/// hand) fall back to their names. The reader is bounded: lines of at most `maximumLine` bytes,
/// a file of at most `maximumBytes`, every field range-checked; anything else is skipped.
package final class SegmentJournal: Sendable {
    /// What the journal knows of one segment.
    package struct Entry: Sendable, Equatable {
        /// Its start on the anchored time line.
        package var start: Date
        /// The wall clock when it was opened (its name's time).
        package var opened: Date
        /// Its own duration, once it is finished.
        package var duration: Double?
        /// The recorder that wrote it.
        package var run: String
        /// Clock steps its recorder had seen when it started.
        package var epoch: Int
    }

    /// The file's path.
    package let path: String
    /// The root the paths in it are relative to.
    package let root: String
    private let state = Locked(State())

    private struct State {
        var entries: [String: Entry] = [:]
        /// Bytes of the file read so far, and the file's identity then.
        var offset = 0
        var identity: (device: UInt64, inode: UInt64)?
        /// The segments being written by this process and their duration so far.
        var progress: [String: Double] = [:]
    }

    /// The longest line read.
    package static let maximumLine = 4096
    /// The most bytes of a journal read (about 20 years of 1 h segments, 40 days of 5 s ones).
    package static let maximumBytes = 64 << 20

    private static let shared = Locked([String: SegmentJournal]())

    /// The one journal of `pathName`'s segments under `root`, shared by the recorder and playback.
    package static func at(root: String, pathName: String) -> SegmentJournal {
        let path = (root as NSString).appendingPathComponent(".onair-\(pathName).journal")
        return shared.withLock { journals in
            if let journal = journals[path] { return journal }
            let journal = SegmentJournal(path: path, root: root)
            journals[path] = journal
            return journal
        }
    }

    private init(path: String, root: String) {
        self.path = path
        self.root = root
    }

    /// `path` relative to the root (as the journal stores it), or nil when it is not under it.
    package func relative(_ path: String) -> String? {
        let standard = root == "." ? "" : (root.hasSuffix("/") ? root : root + "/")
        if standard.isEmpty { return path.hasPrefix("./") ? String(path.dropFirst(2)) : (path.hasPrefix("/") ? nil : path) }
        return path.hasPrefix(standard) ? String(path.dropFirst(standard.count)) : nil
    }

    /// Notes that `segment` starts at `start` on the line (opened at `opened` on the wall clock).
    package func started(_ segment: String, start: Date, opened: Date, run: String, epoch: Int) throws {
        guard let name = relative(segment), Self.isStorable(name) else { return }
        let line = "S\t\(name)\t\(Self.micros(start))\t\(Self.micros(opened))\t\(run)\t\(epoch)\n"
        try append(line)
        state.withLock { state in
            state.entries[name] = Entry(start: start, opened: opened, duration: nil, run: run, epoch: epoch)
            state.progress[name] = 0
        }
    }

    /// Notes how long the segment being written lasts so far (kept in memory only).
    package func progressed(_ segment: String, duration: Double) {
        guard let name = relative(segment) else { return }
        state.withLock { $0.progress[name] = duration }
    }

    /// Notes that `segment` ended after `duration` seconds of media.
    package func finished(_ segment: String, duration: Double) throws {
        guard let name = relative(segment), Self.isStorable(name) else { return }
        try append("E\t\(name)\t\(Int64((duration * 1_000_000).rounded()))\n")
        state.withLock { state in
            state.entries[name]?.duration = duration
            state.progress[name] = nil
        }
    }

    /// What is known of every segment, by path relative to the root (the file read on from where
    /// the last call stopped), with the duration so far of those this process is writing.
    package func entries() -> [String: Entry] {
        refresh()
        return state.withLock { state in
            var entries = state.entries
            for (name, duration) in state.progress where entries[name]?.duration == nil { entries[name]?.duration = duration }
            return entries
        }
    }

    /// Rewrites the file with the entries of `keeping` only (after retention deleted segments),
    /// when more than half of it is of segments gone; the new file replaces the old one at once.
    package func compact(keeping: Set<String>) {
        refresh()
        let text: String? = state.withLock { state in
            let gone = state.entries.keys.filter { !keeping.contains($0) && state.progress[$0] == nil }
            guard gone.count > 16, gone.count * 2 > state.entries.count else { return nil }
            for name in gone { state.entries[name] = nil }
            var text = ""
            for (name, entry) in state.entries.sorted(by: { $0.value.start < $1.value.start }) {
                text += "S\t\(name)\t\(Self.micros(entry.start))\t\(Self.micros(entry.opened))\t\(entry.run)\t\(entry.epoch)\n"
                if let duration = entry.duration, state.progress[name] == nil {
                    text += "E\t\(name)\t\(Int64((duration * 1_000_000).rounded()))\n"
                }
            }
            return text
        }
        guard let text else { return }
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        _ = fsync(descriptor)
        Foundation.close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        state.withLock { state in
            state.offset = bytes.count
            state.identity = Self.identity(of: path)
        }
    }

    /// Reads what was appended since the last read (all of it again if the file was replaced).
    private func refresh() {
        state.withLock { state in
            guard let identity = Self.identity(of: path) else { return }
            if let known = state.identity, known != identity {
                state.offset = 0
                state.entries = [:]
            }
            state.identity = identity
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { Foundation.close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var pending: [UInt8] = []
            var offset = state.offset
            while offset < Self.maximumBytes {
                let count = buffer.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress, min($0.count, Self.maximumBytes - offset), off_t(offset))
                }
                guard count > 0 else { break }
                pending += buffer[0..<count]
                offset += count
                let used = Self.parse(pending[...], into: &state.entries)
                pending.removeFirst(used)
                if pending.count > Self.maximumLine { pending.removeAll() }
            }
            // A partial last line is read again next time.
            state.offset = offset - pending.count
        }
    }

    /// Reads the complete lines of `bytes` into `entries` and returns how many bytes they took
    /// (a partial last line is left). A malformed line is skipped; nothing is read past `bytes`.
    @discardableResult
    package static func parse(_ bytes: ArraySlice<UInt8>, into entries: inout [String: Entry]) -> Int {
        var used = 0
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: 10) {
            let line = bytes[start..<newline]
            if line.count <= maximumLine { read(line, into: &entries) }
            start = newline + 1
            used = start - bytes.startIndex
        }
        return used
    }

    private static func read(_ line: ArraySlice<UInt8>, into entries: inout [String: Entry]) {
        let fields = line.split(separator: 9, omittingEmptySubsequences: false)
        guard let kind = fields.first, kind.count == 1, fields.count >= 3 else { return }
        let name = String(decoding: fields[1], as: UTF8.self)
        guard isStorable(name) else { return }
        switch kind.first {
        case UInt8(ascii: "S"):
            guard fields.count == 6, let start = number(fields[2]), let opened = number(fields[3]),
                (1...64).contains(fields[4].count), fields[4].allSatisfy(isIDByte), let epoch = number(fields[5]), epoch >= 0,
                epoch < Int64(Int32.max)
            else { return }
            entries[name] = Entry(
                start: date(start), opened: date(opened), duration: nil, run: String(decoding: fields[4], as: UTF8.self),
                epoch: Int(epoch))
        case UInt8(ascii: "E"):
            guard fields.count == 3, let duration = number(fields[2]), duration >= 0, entries[name] != nil else { return }
            entries[name]?.duration = Double(duration) / 1_000_000
        default:
            return
        }
    }

    /// A decimal of at most 18 digits with an optional minus: within ±31,000 years in microseconds.
    private static func number(_ field: ArraySlice<UInt8>) -> Int64? {
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard (1...18).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        return negative ? -value : value
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || byte == 45
    }

    /// Whether a relative path can be a field: not empty, no tab, newline or NUL, not too long.
    private static func isStorable(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count < maximumLine / 2 && !name.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 0 }
    }

    private static func micros(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }
    private static func date(_ micros: Int64) -> Date { Date(timeIntervalSince1970: Double(micros) / 1_000_000) }

    private static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Appends one line with one `write` on an `O_APPEND` descriptor (so two writers never
    /// interleave a line) and syncs it.
    private func append(_ line: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(errno)))
        }
        defer { Foundation.close(descriptor) }
        let bytes = Array(line.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw SinkError.writeFailed(destination: path, reason: String(cString: strerror(errno)))
        }
        _ = fsync(descriptor)
    }
}
