import Foundation
import OnAir
import Testing

/// Retention of segmented recordings: the choice (pure) and the sweep over a temporary
/// directory with an injected clock and an injected free-space reading.
@Suite struct RecordingRetentionTests {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    static func segments(_ count: Int, size: Int64 = 100, every: Double = 60) -> [RecordedSegment] {
        (0..<count).map { index in
            let start = t0.addingTimeInterval(Double(index) * every)
            return RecordedSegment(path: "s\(index)", start: start, size: size, modified: start.addingTimeInterval(every))
        }
    }

    @Test func ageDeletesWhatEndedLongerAgoOldestFirst() {
        let policy = RetentionPolicy(deleteAfter: .seconds(150))
        let all = Self.segments(5)  // ends at 60, 120, 180, 240, 300
        let chosen = policy.choose(all, now: Self.t0.addingTimeInterval(300), writing: "s4", freeBytes: nil)
        #expect(chosen.map(\.path) == ["s0", "s1"])
    }

    @Test func sizeKeepsTheNewestUnderTheLimitAndNeverTheOneBeingWritten() {
        let policy = RetentionPolicy(maxBytes: 250)
        let all = Self.segments(5)
        #expect(policy.choose(all, now: Self.t0, writing: "s4", freeBytes: nil).map(\.path) == ["s0", "s1", "s2"])
        // Even a limit below one segment keeps the one being written.
        let tiny = RetentionPolicy(maxBytes: 1)
        #expect(tiny.choose(all, now: Self.t0, writing: "s4", freeBytes: nil).map(\.path) == ["s0", "s1", "s2", "s3"])
        #expect(RetentionPolicy(maxBytes: 500).choose(all, now: Self.t0, writing: nil, freeBytes: nil).isEmpty)
    }

    @Test func freeSpaceDeletesUntilEnoughIsFree() {
        let policy = RetentionPolicy(minFreeBytes: 1000)
        let all = Self.segments(5, size: 300)
        #expect(policy.choose(all, now: Self.t0, writing: "s4", freeBytes: 500).map(\.path) == ["s0", "s1"])
        #expect(policy.choose(all, now: Self.t0, writing: "s4", freeBytes: 1000).isEmpty)
        #expect(policy.choose(all, now: Self.t0, writing: "s4", freeBytes: nil).isEmpty)  // unknown: nothing
        // Rules add up: age removes s0, the free-space rule counts its bytes as freed already.
        let both = RetentionPolicy(deleteAfter: .seconds(200), minFreeBytes: 1000)
        #expect(both.choose(all, now: Self.t0.addingTimeInterval(300), writing: "s4", freeBytes: 500).map(\.path) == ["s0", "s1"])
    }

    @Test func theSweepDeletesOldestFirstRemovesEmptyFoldersAndLogsEach() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("retention-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let template = try RecordPathTemplate(root + "/%path/%Y-%m-%d/%H-%M-%S", timeZone: TimeZone(identifier: "UTC")!)
        // Three days, two segments a day, 1000 bytes each; one foreign file that must stay.
        var paths: [String] = []
        for day in 0..<3 {
            for half in 0..<2 {
                let start = Self.t0.addingTimeInterval(Double(day) * 86_400 + Double(half) * 3600)
                let path = template.path(pathName: "live", start: start) + ".mp4"
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: path, contents: Data(count: 1000))
                paths.append(path)
            }
        }
        let foreign = root + "/live/notes.txt"
        _ = FileManager.default.createFile(atPath: foreign, contents: Data("keep".utf8))
        let lines = Lines()
        let sweeper = RetentionSweeper(
            index: SegmentIndex(template: template, pathName: "live", extensions: ["mp4"]),
            policy: RetentionPolicy(maxBytes: 2500), now: { Self.t0.addingTimeInterval(3 * 86_400) },
            freeBytes: { _ in nil }, log: { lines.append($0) })
        #expect(sweeper.index.scan().map(\.path) == paths)
        let deleted = sweeper.sweep(writing: paths[5])
        #expect(deleted == Array(paths[0..<4]))
        #expect(lines.all.count == 4 && lines.all.allSatisfy { $0.contains("deleted") && $0.contains("size") })
        // The first two days' folders are gone, the root and the foreign file stay.
        let days = try FileManager.default.contentsOfDirectory(atPath: root + "/live").sorted()
        #expect(days.count == 2 && days.contains("notes.txt"), "\(days)")
        #expect(FileManager.default.fileExists(atPath: foreign))
        // The one being written is kept even when free space is short.
        let starved = RetentionSweeper(
            index: sweeper.index, policy: RetentionPolicy(minFreeBytes: 1_000_000), now: { Self.t0 },
            freeBytes: { _ in 0 }, log: { lines.append($0) })
        #expect(starved.sweep(writing: paths[5]) == [paths[4]])
        #expect(FileManager.default.fileExists(atPath: paths[5]))
    }
}

/// Log lines collected from any thread.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
