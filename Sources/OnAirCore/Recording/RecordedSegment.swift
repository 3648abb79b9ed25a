import Foundation

/// One segment file found on disk: where, when it starts (from its name), how big it is and when
/// it was last written (from the directory entry: no file is opened).
public struct RecordedSegment: Sendable, Equatable {
    /// The file's path.
    public var path: String
    /// The start its name gives.
    public var start: Date
    /// Bytes on disk.
    public var size: Int64
    /// The last write, which for a finished segment is about its end.
    public var modified: Date

    /// A segment of the given figures.
    public init(path: String, start: Date, size: Int64, modified: Date) {
        self.path = path
        self.start = start
        self.size = size
        self.modified = modified
    }
}

/// The segments of one stream's recording, found from file names under the template's root.
public struct SegmentIndex: Sendable {
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
    public func scan() -> [RecordedSegment] {
        let root = template.root(pathName: pathName)
        var found: [RecordedSegment] = []
        var pending = [root]
        while let directory = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names {
                let path = directory == "/" ? "/" + name : directory + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(path)
                    continue
                }
                guard (info.st_mode & S_IFMT) == S_IFREG, let dot = name.lastIndex(of: "."),
                    extensions.contains(String(name[name.index(after: dot)...]))
                else { continue }
                let stem = String(path.dropLast(name.distance(from: dot, to: name.endIndex)))
                guard
                    let start = template.startTime(
                        of: Self.relativeToTemplate(stem, root: root, template: template, pathName: pathName), pathName: pathName)
                else { continue }
                let modified = Date(
                    timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
                found.append(RecordedSegment(path: path, start: start, size: Int64(info.st_size), modified: modified))
            }
        }
        return found.sorted { $0.start < $1.start }
    }

    /// `path` as the template writes it: a root of `.` is written without the `./` in front.
    static func relativeToTemplate(_ path: String, root: String, template: RecordPathTemplate, pathName: String) -> String {
        if root == ".", path.hasPrefix("./"), !template.text.hasPrefix("./") { return String(path.dropFirst(2)) }
        return path
    }
}
