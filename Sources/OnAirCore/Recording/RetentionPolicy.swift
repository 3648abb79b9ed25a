import Foundation

/// Which segments a recording deletes: older than `deleteAfter`, beyond `maxBytes` all together,
/// or while the file system has less than `minFreeBytes` free. The oldest go first and the one
/// being written never. Pure: `choose` takes the time and the free space as arguments.
public struct RetentionPolicy: Sendable, Equatable {
    /// Delete segments that ended longer ago than this, or nil.
    public var deleteAfter: Duration?
    /// Keep all segments together under this many bytes, or nil.
    public var maxBytes: Int64?
    /// Keep at least this many bytes free on the recording's file system, or nil.
    public var minFreeBytes: Int64?

    /// A policy; nil everywhere keeps everything.
    public init(deleteAfter: Duration? = nil, maxBytes: Int64? = nil, minFreeBytes: Int64? = nil) {
        self.deleteAfter = deleteAfter
        self.maxBytes = maxBytes
        self.minFreeBytes = minFreeBytes
    }

    /// Whether the policy ever deletes anything.
    public var isActive: Bool { deleteAfter != nil || maxBytes != nil || minFreeBytes != nil }

    /// The segments to delete, oldest first, from `segments` (oldest first) at `now`, with
    /// `freeBytes` free (nil: unknown, the free-space rule is skipped); `writing` is never chosen.
    /// A segment's end is the next one's start, or its last write for the newest.
    package func choose(_ segments: [RecordedSegment], now: Date, writing: String?, freeBytes: Int64?) -> [RecordedSegment] {
        let candidates = segments.enumerated().filter { $0.element.path != writing }
        var chosen = Set<Int>()
        if let deleteAfter {
            for (index, segment) in candidates {
                let end = index + 1 < segments.count ? segments[index + 1].start : segment.modified
                if now.timeIntervalSince(end) > deleteAfter.inSeconds { chosen.insert(index) }
            }
        }
        if let maxBytes {
            var total = segments.enumerated().filter { !chosen.contains($0.offset) }.reduce(Int64(0)) { $0 + $1.element.size }
            for (index, segment) in candidates where total > maxBytes && !chosen.contains(index) {
                chosen.insert(index)
                total -= segment.size
            }
        }
        if let minFreeBytes, let freeBytes {
            var free = freeBytes + segments.enumerated().filter { chosen.contains($0.offset) }.reduce(Int64(0)) { $0 + $1.element.size }
            for (index, segment) in candidates where free < minFreeBytes && !chosen.contains(index) {
                chosen.insert(index)
                free += segment.size
            }
        }
        return chosen.sorted().map { segments[$0] }
    }
}

/// Applies a `RetentionPolicy` to a recording's files: scans them by name, deletes what the
/// policy chooses, removes the folders left empty (up to the template's root) and logs each
/// deletion. The clock and the free-space reading are injected.
package final class RetentionSweeper: @unchecked Sendable {
    /// Where the segments are.
    package let index: SegmentIndex
    /// What to delete (a reload may change it: `setPolicy`).
    public var policy: RetentionPolicy { lock.withLock { current } }
    private var current: RetentionPolicy
    private let lock = NSLock()
    private let now: @Sendable () -> Date
    private let freeBytes: @Sendable (String) -> Int64?
    private let log: @Sendable (String) -> Void

    /// A sweeper over `index` with `policy`; `freeBytes` reads the free space of the file system
    /// holding a path (default: `statvfs`), `log` hears one line per deletion.
    package init(
        index: SegmentIndex, policy: RetentionPolicy, now: @escaping @Sendable () -> Date = { Date() },
        freeBytes: @escaping @Sendable (String) -> Int64? = RetentionSweeper.freeBytes(at:),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.index = index
        self.current = policy
        self.now = now
        self.freeBytes = freeBytes
        self.log = log
    }

    /// Applies `policy` from the next pass on.
    package func setPolicy(_ policy: RetentionPolicy) {
        lock.withLock { current = policy }
    }

    /// One pass: returns the paths deleted. `writing` (the segment being written) is kept.
    @discardableResult
    public func sweep(writing: String?) -> [String] {
        let policy = self.policy
        guard policy.isActive else { return [] }
        let root = index.template.root(pathName: index.pathName)
        let segments = index.scan()
        let free = policy.minFreeBytes == nil ? nil : freeBytes(root)
        let chosen = policy.choose(segments, now: now(), writing: writing, freeBytes: free)
        var deleted: [String] = []
        for segment in chosen {
            if unlink(segment.path) == 0 {
                deleted.append(segment.path)
                log("recording: deleted \(segment.path) (\(segment.size) bytes, \(Self.reason(segment, policy: policy)))")
                removeEmptyFolders(from: (segment.path as NSString).deletingLastPathComponent, root: root)
            } else {
                log("recording: cannot delete \(segment.path): \(String(cString: strerror(errno)))")
            }
        }
        return deleted
    }

    private static func reason(_ segment: RecordedSegment, policy: RetentionPolicy) -> String {
        var rules: [String] = []
        if policy.deleteAfter != nil { rules.append("age") }
        if policy.maxBytes != nil { rules.append("size") }
        if policy.minFreeBytes != nil { rules.append("free space") }
        return "retention by " + rules.joined(separator: "/")
    }

    /// Removes `directory` and its parents while empty, stopping at `root` (kept).
    private func removeEmptyFolders(from directory: String, root: String) {
        var current = directory
        let stop = (root as NSString).standardizingPath
        while (current as NSString).standardizingPath != stop, current.count > stop.count, current != "/", !current.isEmpty {
            guard rmdir(current) == 0 else { return }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// Free bytes for unprivileged users on the file system holding `path`, or nil.
    public static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
