#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// `onair record --record-path`: segments of 2 s cut at keyframes, each opening alone, back to
/// back in time, named and boxed with their wall-clock start, synced to disk every part, and the
/// segment-complete command run for each.
@Suite struct SegmentedRecordingTests {
    /// The video packets of a file: (pts, duration, keyframe), in file order.
    static func videoPackets(_ path: String) throws -> [(pts: Double, duration: Double, key: Bool)] {
        let info = try Tools.ffprobeJSON(["-select_streams", "v", "-show_packets", path])
        return (info["packets"] as? [[String: Any]] ?? []).map { packet in
            (
                Double(packet["pts_time"] as? String ?? "") ?? -1, Double(packet["duration_time"] as? String ?? "") ?? 0,
                (packet["flags"] as? String ?? "").hasPrefix("K")
            )
        }
    }

    @Test(arguments: ["fmp4", "mpegts"])
    func segmentsOpenAloneStartOnKeyframesAndFollowEachOther(format: String) throws {
        let dir = try Tools.temporaryDirectory("segments")
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = dir.path + "/%path/%Y-%m-%d/%H-%M-%S-%f"
        let hookLog = dir.appendingPathComponent("hook.txt").path
        let trace = dir.appendingPathComponent("strace.txt").path
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let strace = (try? Tools.run("strace", ["-V"]).status) == 0
        let record = [
            Tools.onairExecutable, "record", "--duration", "7", "--size", "320x240", "--fps", "30",
            "--record-path", template, "--record-format", format, "--record-segment-duration", "2s",
            "--record-part-duration", "1s", "--stats-json", stats,
            "--on-segment-complete", "echo \"$ONAIR_SEGMENT_PATH $ONAIR_SEGMENT_DURATION\" >> '\(hookLog)'",
        ]
        let result =
            strace
            ? try Tools.run("strace", ["-f", "-e", "trace=fsync,fdatasync", "-o", trace] + record)
            : try Tools.run(record[0], Array(record.dropFirst()))
        #expect(result.status == 0, "\(result.stderr)")
        let recording = try RecordingSettings(template: RecordPathTemplate(template))
        let segments = SegmentIndex(template: recording.template, pathName: "live").scan()
        // 7 s of media in 2 s segments (a loaded machine may drop frames, never keyframes' place).
        #expect(segments.count >= 3, "\(segments.map(\.path))")
        var previousEnd: Double?
        var previousStart: (media: Double, wall: Date)?
        for segment in segments {
            #expect(try RecordCommandTests.decodesCleanly(segment.path).isEmpty, "\(segment.path)")
            let packets = try Self.videoPackets(segment.path)
            let first = try #require(packets.first, "\(segment.path) has no video")
            #expect(first.key, "\(segment.path) starts on a non-keyframe")
            // Back to back: this segment starts where the previous one's last frame ends.
            if let previousEnd { #expect(abs(first.pts - previousEnd) < 0.001, "\(segment.path): \(first.pts) after \(previousEnd)") }
            let last = try #require(packets.max { $0.pts < $1.pts })
            previousEnd = last.pts + last.duration
            // The names are as far apart as the media.
            if let previousStart {
                let named = segment.start.timeIntervalSince(previousStart.wall)
                #expect(abs(named - (first.pts - previousStart.media)) < 0.001, "\(segment.path)")
            }
            previousStart = (first.pts, segment.start)
            if format == "fmp4" {
                let head = try [UInt8](FileHandle(forReadingFrom: URL(fileURLWithPath: segment.path)).read(upToCount: 4096) ?? Data())
                let box = try #require(SegmentStartBox.find(in: head), "\(segment.path) has no start box")
                #expect(abs(box.wallClock.timeIntervalSince(segment.start)) < 1e-5)
                #expect(abs(Double(box.mediaMicroseconds) / 1e6 - first.pts) < 0.001)
            }
        }
        // Every frame encoded is on disk, from the first keyframe on (none lost before audio starts).
        let encoded = try RecordCommandTests.finalStatistics(stats)["frames_out"] as? Int ?? -1
        var onDisk = 0
        for segment in segments { onDisk += try Self.videoPackets(segment.path).count }
        #expect(onDisk == encoded, "\(onDisk) frames in the segments, \(encoded) encoded")
        // The hook ran once per segment with its path and duration.
        let hooks = try String(contentsOfFile: hookLog, encoding: .utf8).split(separator: "\n")
        #expect(Set(hooks.compactMap { $0.split(separator: " ").first.map(String.init) }) == Set(segments.map(\.path)))
        #expect(hooks.allSatisfy { Double($0.split(separator: " ").last ?? "") ?? 0 > 0.5 })
        if strace {
            // One sync per part at least (a flush alone does not survive a pulled plug): ~6 parts.
            let syncs = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
                $0.contains("fsync(") || $0.contains("fdatasync(")
            }
            #expect(syncs.count >= 6, "\(syncs.count) syncs")
        } else {
            print("strace is not installed (scripts/setup.sh installs it): fsync not checked")
        }
    }

    /// A recording killed with SIGKILL (no chance to finish anything) loses at most one part: every
    /// closed segment decodes with no error and starts on a keyframe, the one being written plays
    /// up to its last synced part, and the frames on disk are at least those encoded by the last
    /// statistics line read before the kill, less one part and one second of statistics.
    @Test func aKilledRecordingLosesAtMostOnePart() throws {
        let dir = try Tools.temporaryDirectory("segments-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = dir.path + "/%path/%Y-%m-%d/%H-%M-%S-%f"
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let record = Tools.process(
            Tools.onairExecutable,
            [
                "record", "--size", "320x240", "--fps", "30", "--record-path", template, "--record-format", "fmp4",
                "--record-segment-duration", "2s", "--record-part-duration", "1s", "--stats-json", stats,
            ])
        record.standardError = FileHandle.nullDevice
        try record.runUnblocked()
        defer { if record.isRunning { kill(record.processIdentifier, SIGKILL) } }
        // Runs until its statistics say 5.5 s, then dies at once.
        func lastStatistics() -> [String: Any]? { try? RecordCommandTests.finalStatistics(stats) }
        #expect(waitUntil(timeout: 30) { !record.isRunning || (lastStatistics()?["elapsed"] as? Double ?? 0) >= 5.5 })
        let encoded = lastStatistics()?["frames_out"] as? Int ?? -1
        kill(record.processIdentifier, SIGKILL)
        record.waitUntilExit()
        #expect(record.terminationReason == .uncaughtSignal)

        let segments = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live").scan()
        #expect(segments.count >= 3, "\(segments.map(\.path))")
        var onDisk = 0
        for (number, segment) in segments.enumerated() {
            let size = (try? FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int) ?? 0
            // The segment being written when the process died may have been opened a moment
            // before: an empty file, or a header with no part in it yet.
            let writing = number == segments.count - 1
            if writing && size == 0 { continue }
            let packets = try Self.videoPackets(segment.path)
            onDisk += packets.count
            if writing && packets.isEmpty { continue }
            #expect(packets.first?.key == true, "\(segment.path) starts on a non-keyframe")
            if !writing {
                #expect(try RecordCommandTests.decodesCleanly(segment.path).isEmpty, "\(segment.path)")
            }
        }
        print("killed recording: \(segments.count) segments, \(onDisk) frames on disk, \(encoded) encoded by the last statistics")
        // One part (30 frames) may be lost, and the statistics line read was up to a second old.
        #expect(encoded > 150 && onDisk >= encoded - 30, "\(onDisk) frames on disk, \(encoded) encoded before the kill")
    }

    /// A full disk pauses a segmented recording instead of ending it: the segment being written
    /// keeps its synced parts, and once room comes back (here the test deletes the segments) the
    /// recording resumes with a new segment on a keyframe that plays alone.
    @Test(.enabled(if: getuid() == 0, "mounting a 2 MB tmpfs needs root"))
    func aFullDiskPausesTheRecordingAndRoomResumesIt() throws {
        // About 3.4 Mb/s here: the 2 MB fill in about 5 s, leaving time to resume before the end.
        let (dir, small) = try OutputFailureTests.mountSmallDisk("segments-full", options: "size=2m")
        defer { OutputFailureTests.unmount(dir, small) }
        let template = small.path + "/%path/%Y-%m-%d/%H-%M-%S-%f"
        let log = dir.appendingPathComponent("record.log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        let record = Tools.process(
            Tools.onairExecutable,
            [
                "record", "--duration", "10", "--size", "640x360", "--bitrate", "4M", "--record-path", template,
                "--record-format", "fmp4", "--record-segment-duration", "2s", "--record-part-duration", "1s",
            ])
        record.standardError = try FileHandle(forWritingTo: log)
        try record.runUnblocked()
        defer { if record.isRunning { kill(record.processIdentifier, SIGKILL) } }
        func logText() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 20) { !record.isRunning || logText().contains("waiting for room on the disk") }, "\(logText())")
        // Room: every segment so far goes.
        let before = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live").scan()
        for segment in before { try FileManager.default.removeItem(atPath: segment.path) }
        record.waitUntilExit()
        let text = logText()
        #expect(text.contains("recording: resumed after a full disk"), "\(text)")
        // What was written after the resume: at least one segment, each on a keyframe, clean.
        let after = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live").scan()
        #expect(!after.isEmpty && after.allSatisfy { !before.map(\.path).contains($0.path) })
        // The last one is complete when the run ended well; if the disk filled again it may end early.
        for segment in record.terminationStatus == 0 ? after : Array(after.dropLast()) {
            #expect(try Self.videoPackets(segment.path).first?.key == true, "\(segment.path)")
            #expect(try RecordCommandTests.decodesCleanly(segment.path).isEmpty, "\(segment.path)")
        }
        // It ends well, or (the disk filled again before the end) says so as a failed output.
        #expect(record.terminationStatus == 0 || text.contains("No space left on device"), "\(text)")
        print("full disk: \(before.count) segments before the pause, \(after.count) after the resume, exit \(record.terminationStatus)")
    }

    @Test func retentionBySizeKeepsTheNewestUnderTheLimitAndRemovesEmptyFolders() throws {
        let dir = try Tools.temporaryDirectory("retention")
        defer { try? FileManager.default.removeItem(at: dir) }
        // One folder per second: retention must leave none empty behind.
        let template = dir.path + "/%path/%s/%f"
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--duration", "8", "--size", "320x240", "--fps", "15", "--bitrate", "400k", "--record-path", template,
                "--record-segment-duration", "1s", "--record-max-size", "150k",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = result.stderr.components(separatedBy: "\n").filter { $0.contains("recording: wrote") }
        let deleted = result.stderr.components(separatedBy: "\n").filter { $0.contains("recording: deleted") }
        let segments = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live").scan()
        let total = segments.reduce(Int64(0)) { $0 + $1.size }
        let largest = segments.map(\.size).max() ?? 0
        // Under the limit plus the one being written when the last check ran.
        #expect(total <= 150_000 + largest, "\(total) bytes in \(segments.count) segments")
        #expect(!deleted.isEmpty && deleted.count + segments.count == written.count, "\(written.count) written, \(deleted.count) deleted")
        // The newest are kept: the last segment written is there.
        let last = try #require(written.last?.components(separatedBy: "wrote ").last?.components(separatedBy: " (").first)
        #expect(segments.last?.path == last)
        // Every folder left holds a segment.
        // (The recording's journal, `.onair-live.journal`, lies beside the folders.)
        let folders = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/live").filter { !$0.hasPrefix(".") }
        #expect(folders.count == segments.count, "\(folders.count) folders, \(segments.count) segments")
    }
}
#endif
