import Foundation

/// One segment file found on disk: where, when it starts, how big it is and when it was last
/// written (from the directory entry: no file is opened). The start and duration are the
/// journal's (`SegmentJournal`: the anchored time line) where it knows the segment, else the
/// start its name gives and no duration.
package struct RecordedSegment: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// The start on the anchored time line (or, for a segment the journal does not know, its name's).
    public var start: Date
    /// Bytes on disk.
    public var size: Int64
    /// The last write, which for a finished segment is about its end (on the wall clock).
    public var modified: Date
    /// Its own duration (seconds of media) where the journal has it: so far for one being written.
    public var duration: Double?
    /// The recorder that wrote it and the clock steps it had seen: runs are joined only within one
    /// recorder and epoch, never across a clock step.
    public var run: String?
    /// See `run`.
    public var epoch = 0

    /// A segment of the given figures.
    public init(path: String, start: Date, size: Int64, modified: Date, duration: Double? = nil, run: String? = nil, epoch: Int = 0) {
        self.path = path
        self.start = start
        self.size = size
        self.modified = modified
        self.duration = duration
        self.run = run
        self.epoch = epoch
    }

    /// Its end: start plus its own duration; without one (a segment from before the journal),
    /// its last write but never past `next`'s start nor before its own start.
    public func end(next: RecordedSegment?) -> Date {
        if let duration { return start.addingTimeInterval(duration) }
        let end = next.map { min(modified, $0.start) } ?? modified
        return max(end, start)
    }

    /// Whether `next` goes on the same run of recording as this one: the same recorder and
    /// clock epoch (or both from before the journal).
    public func continues(into next: RecordedSegment) -> Bool {
        run == next.run && epoch == next.epoch
    }
}

/// The segments of one stream's recording, found from file names under the template's root.
package struct SegmentIndex: Sendable {
    /// How segment paths are made.
    public let template: RecordPathTemplate
    /// The stream's path name (`%path`).
    public let pathName: String
    /// The extensions a segment may have (`mp4`, `ts`).
    public let extensions: Set<String>

    /// An index of `pathName`'s segments as `template` names them, with any of `extensions`.
    public init(template: RecordPathTemplate, pathName: String, extensions: Set<String> = ["mp4", "ts"]) {
        self.template = template
        self.pathName = pathName
        self.extensions = extensions
    }

    /// Every segment on disk, oldest first. Files whose names do not fit the template are left
    /// alone (never listed, never deleted).
    public func scan() -> [RecordedSegment] { scan(from: nil, to: nil) }

    /// The segments that may overlap `from`…`to` (either open), oldest first: the names are read
    /// for all (no file is opened), but only the segments in the range, the one before it and
    /// the one after it are `stat`ed for their size and last write.
    public func scan(from: Date?, to: Date?) -> [RecordedSegment] {
        let named = entries()
        var low = 0, high = named.count
        if let from {
            // The last segment starting at or before `from` may still run into the range.
            var first = 0, last = named.count
            while first < last {
                let middle = (first + last) / 2
                if named[middle].start > from { last = middle } else { first = middle + 1 }
            }
            low = max(0, first - 1)
        }
        if let to {
            var first = low, last = named.count
            while first < last {
                let middle = (first + last) / 2
                if named[middle].start >= to { last = middle } else { first = middle + 1 }
            }
            high = min(named.count, first + 1)
        }
        guard low < high else { return [] }
        return named[low..<high].compactMap { entry in
            var info = stat()
            guard lstat(entry.path, &info) == 0 else { return nil }
            let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
            return RecordedSegment(
                path: entry.path, start: entry.start, size: Int64(info.st_size), modified: modified, duration: entry.entry?.duration,
                run: entry.entry?.run, epoch: entry.entry?.epoch ?? 0)
        }
    }

    /// The journal of this stream's segments under the template's root.
    public var journal: SegmentJournal { SegmentJournal.at(root: template.root(pathName: pathName), pathName: pathName) }

    /// Every segment's path, start and what the journal knows of it, oldest first.
    public func names() -> [(path: String, start: Date)] { entries().map { ($0.path, $0.start) } }

    private func entries() -> [(path: String, start: Date, entry: SegmentJournal.Entry?)] {
        let journal = self.journal
        let known = journal.entries()
        let root = template.root(pathName: pathName)
        var found: [(path: String, start: Date, entry: SegmentJournal.Entry?)] = []
        var pending = [root]
        var offsets: [Int: Double] = [:]
        let pathNameBytes = Array(pathName.utf8)
        let dropsDotSlash = root == "." && !template.text.hasPrefix("./")
        while let directory = pending.popLast() {
            guard let stream = opendir(directory) else { continue }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var type = Int32(entry.pointee.d_type)
                if type == Int32(DT_UNKNOWN) {
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    type = (info.st_mode & S_IFMT) == S_IFDIR ? Int32(DT_DIR) : (info.st_mode & S_IFMT) == S_IFREG ? Int32(DT_REG) : 0
                }
                if type == Int32(DT_DIR) {
                    pending.append(path)
                    continue
                }
                guard type == Int32(DT_REG), let dot = name.lastIndex(of: "."),
                    extensions.contains(String(name[name.index(after: dot)...]))
                else { continue }
                // The path without its extension, as the template wrote it (no "./" for a root of ".").
                var written = Array(path.utf8.dropLast(name.utf8.count - name.utf8.distance(from: name.utf8.startIndex, to: dot)))
                if dropsDotSlash, written.starts(with: [46, 47]) { written.removeFirst(2) }
                guard let start = template.startTime(of: written, pathName: pathNameBytes, offsets: &offsets) else { continue }
                let entry = journal.relative(path).flatMap { known[$0] }
                found.append((path, entry?.start ?? start, entry))
            }
        }
        return found.sorted { $0.start < $1.start }
    }
}
