import Foundation

extension RecordingSettings {
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
        /// Whether the age rule waits while the kernel says the wall clock is not synchronized (a
        /// board without a real-time clock before NTP has set it): on by default. Off for a device
        /// that never synchronizes, where ages are then judged on an unchecked clock.
        public var waitsForClockSync = true

        /// A policy; nil everywhere keeps everything.
        public init(deleteAfter: Duration? = nil, maxBytes: Int64? = nil, minFreeBytes: Int64? = nil, waitsForClockSync: Bool = true) {
            self.deleteAfter = deleteAfter
            self.maxBytes = maxBytes
            self.minFreeBytes = minFreeBytes
            self.waitsForClockSync = waitsForClockSync
        }

        /// Whether the policy ever deletes anything.
        public var isActive: Bool { deleteAfter != nil || maxBytes != nil || minFreeBytes != nil }

        /// The segments to delete, oldest first, from `segments` (oldest first) at `now` on the
        /// anchored time line, with `freeBytes` free (nil: unknown, the free-space rule is skipped);
        /// `writing` is never chosen. A segment's age is `age` where it gives one (the monotonic age
        /// of a segment this process wrote), else `now` less its end (`RecordedSegment.end(next:)`).
        /// Without `byAge` (the wall clock is not synchronized yet) the age rule waits.
        package func choose(
            _ segments: [RecordedSegment], now: Date, writing: String?, freeBytes: Int64?, byAge: Bool = true,
            age: (RecordedSegment) -> Double? = { _ in nil }
        ) -> [RecordedSegment] {
            let candidates = segments.enumerated().filter { $0.element.path != writing }
            var chosen = Set<Int>()
            if let deleteAfter, byAge {
                for (index, segment) in candidates {
                    let next = index + 1 < segments.count ? segments[index + 1] : nil
                    let seconds = age(segment) ?? now.timeIntervalSince(segment.end(next: next))
                    if seconds > deleteAfter.inSeconds { chosen.insert(index) }
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
}

/// `RecordingSettings.RetentionPolicy` by its short name, inside the package.
package typealias RetentionPolicy = RecordingSettings.RetentionPolicy

/// Applies a `RetentionPolicy` to a recording's files: scans them by name and journal, deletes
/// what the policy chooses, removes the folders left empty (up to the template's root) and logs
/// each deletion. Ages are read on the anchored time line (`AnchoredClock`), and for the segments
/// this process wrote on the monotonic clock alone, so no step of the wall clock ages them; the
/// age rule waits while the wall clock is not synchronized. The clock and the free-space reading
/// are injected.
package final class RetentionSweeper: Sendable {
    /// Where the segments are.
    package let index: SegmentIndex
    /// What to delete (a reload may change it: `setPolicy`).
    public var policy: RecordingSettings.RetentionPolicy { state.withLock { $0.policy } }
    private let state: Locked<State>
    private let clock: AnchoredClock
    private let freeBytes: @Sendable (String) -> Int64?
    private let log: @Sendable (String) -> Void

    private struct State {
        var policy: RetentionPolicy
        /// The monotonic time each segment this process finished ended at.
        var finished: [String: Double] = [:]
        /// Whether the age rule is waiting for the clock (logged once each way).
        var waiting = false
    }

    /// A sweeper over `index` with `policy` on `clock`'s time line; `freeBytes` reads the free
    /// space of the file system holding a path (default: `statvfs`), `log` hears one line per
    /// deletion and the age rule's waits.
    package init(
        index: SegmentIndex, policy: RetentionPolicy, clock: AnchoredClock = AnchoredClock(),
        freeBytes: @escaping @Sendable (String) -> Int64? = RetentionSweeper.freeBytes(at:),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.index = index
        self.state = Locked(State(policy: policy))
        self.clock = clock
        self.freeBytes = freeBytes
        self.log = log
    }

    /// A sweeper whose time line is `now` itself, always synchronized (for tests of the rules).
    package convenience init(
        index: SegmentIndex, policy: RetentionPolicy, now: @escaping @Sendable () -> Date,
        freeBytes: @escaping @Sendable (String) -> Int64? = RetentionSweeper.freeBytes(at:),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let monotonic: @Sendable () -> Double = { now().timeIntervalSince1970 }
        self.init(
            index: index, policy: policy, clock: AnchoredClock(wall: now, monotonic: monotonic, synchronized: { true }),
            freeBytes: freeBytes, log: log)
    }

    /// Applies `policy` from the next pass on.
    package func setPolicy(_ policy: RetentionPolicy) {
        state.withLock { $0.policy = policy }
    }

    /// Notes that this process finished writing `path` now: its age is counted from here on the
    /// monotonic clock.
    package func finished(_ path: String) {
        let now = clock.monotonic()
        state.withLock { $0.finished[path] = now }
    }

    /// One pass: returns the paths deleted. `writing` (the segment being written) is kept.
    @discardableResult
    public func sweep(writing: String?) -> [String] {
        let policy = self.policy
        guard policy.isActive else { return [] }
        let root = index.template.root(pathName: index.pathName)
        let segments = index.scan()
        let free = policy.minFreeBytes == nil ? nil : freeBytes(root)
        let reading = clock.reading()
        let byAge = !policy.waitsForClockSync || clock.synchronized()
        let (finished, changed) = state.withLock { state -> ([String: Double], Bool?) in
            guard policy.deleteAfter != nil, state.waiting == byAge else { return (state.finished, nil) }
            state.waiting = !byAge
            return (state.finished, state.waiting)
        }
        if let changed {
            log(
                changed
                    ? "recording: retention by age waits: the kernel says the wall clock is not synchronized (size and free space still apply)"
                    : "recording: the wall clock is synchronized: retention by age goes on")
        }
        let chosen = policy.choose(
            segments, now: reading.line, writing: writing, freeBytes: free, byAge: byAge,
            age: { segment in finished[segment.path].map { reading.monotonic - $0 } })
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
        if !deleted.isEmpty {
            let gone = Set(deleted)
            state.withLock { state in for path in gone { state.finished[path] = nil } }
            let journal = index.journal
            journal.compact(keeping: Set(segments.filter { !gone.contains($0.path) }.compactMap { journal.relative($0.path) }))
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
