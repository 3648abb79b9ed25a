#if os(Linux)
import Foundation
import OnAirCore
import OnAirFFmpeg
import OnAirTestSupport
import Testing

/// What a segmented recording reports for `/metrics` (`onair_recording_bytes_written_total`,
/// `onair_recording_segments_deleted_total`): every byte its segments got and every segment its
/// retention deleted, judged against its own log lines and the files left on the disk.
@Suite struct RecordingFiguresTests {
    @Test func bytesWrittenAndSegmentsDeletedMatchTheLogAndTheDisk() throws {
        let directory = try Tools.temporaryDirectory("recording-figures")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = RecordingSettings(template: try RecordPathTemplate(directory.path + "/%path/%Y-%m-%d_%H-%M-%S-%f"))
        settings.format = .mpegts
        settings.segmentDuration = .milliseconds(500)
        settings.partDuration = .milliseconds(250)
        settings.retention = RetentionPolicy(maxBytes: 1)  // every complete segment goes at the next sweep
        let lines = Lines()  // RecordingRetentionTests
        let recorder = try SegmentedRecorder(
            settings: settings, streams: [.video], now: { Date(timeIntervalSince1970: 1_700_000_000) }, log: { lines.append($0) })
        #expect(recorder.recordingFigures == RecordingFigures())
        var previous = RecordingFigures()
        for packet in try ServeEncodeRestartMuxTests.packets() {
            try recorder.write(packet)
            let now = recorder.recordingFigures
            #expect(now.bytesWritten >= previous.bytesWritten && now.segmentsDeleted >= previous.segmentsDeleted)
            previous = now
        }
        try recorder.finish()
        let figures = recorder.recordingFigures
        // "recording: wrote PATH (D s, N bytes)" for each segment completed.
        let written = lines.all.filter { $0.hasPrefix("recording: wrote ") }.compactMap { line -> Int64? in
            guard let open = line.range(of: " s, ", options: .backwards) else { return nil }
            return Int64(line[open.upperBound...].prefix { $0.isNumber })
        }
        let deleted = lines.all.filter { $0.hasPrefix("recording: deleted ") }.count
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("live").path)
            .filter { $0.hasSuffix(".ts") }
        #expect(written.count >= 3, "\(lines.all)")
        #expect(figures.bytesWritten == written.reduce(0, +) && figures.bytesWritten > 0, "\(figures) \(written)")
        #expect(figures.segmentsDeleted == deleted && deleted >= 2, "\(figures) \(lines.all)")
        #expect(figures.segmentsDeleted + left.count == written.count, "\(figures) \(left)")
    }
    /// A reload while recording (`Session.reloadRecording`): retention turned on deletes at the
    /// next sweep, a longer segment duration holds the segment under way, and a change of format
    /// or template is refused with nothing applied.
    @Test func aReloadChangesRetentionAndTheSegmentLengthButNotTheFormat() throws {
        let directory = try Tools.temporaryDirectory("recording-reload")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = RecordingSettings(template: try RecordPathTemplate(directory.path + "/%path/%Y-%m-%d_%H-%M-%S-%f"))
        settings.format = .mpegts
        settings.segmentDuration = .milliseconds(500)
        settings.partDuration = .milliseconds(250)
        let lines = Lines()
        let recorder = try SegmentedRecorder(
            settings: settings, streams: [.video], now: { Date(timeIntervalSince1970: 1_700_000_000) }, log: { lines.append($0) })
        // One second at 160x120 then one at 240x136, keyframes every 0.5 s.
        let packets = try ServeEncodeRestartMuxTests.packets()
        let first = try #require(packets.first?.formatDescription)
        let split = try #require(packets.firstIndex { $0.formatDescription.map { $0 != first } ?? false })
        for packet in packets[..<split] { try recorder.write(packet) }
        let wrote = { lines.all.filter { $0.hasPrefix("recording: wrote ") }.count }
        #expect(wrote() == 1, "\(lines.all)")
        #expect(!lines.all.contains { $0.hasPrefix("recording: deleted ") })

        var otherFormat = settings
        otherFormat.format = .fmp4
        #expect(!recorder.reload(otherFormat))
        var otherPlace = settings
        otherPlace.template = try RecordPathTemplate(directory.path + "/elsewhere/%Y-%m-%d_%H-%M-%S-%f")
        #expect(!recorder.reload(otherPlace))
        var fresh = settings
        fresh.segmentDuration = .seconds(60)
        fresh.retention = RetentionPolicy(maxBytes: 1)
        #expect(recorder.reload(fresh))

        for packet in packets[split...] { try recorder.write(packet) }
        try recorder.finish()
        // The new size cuts at its first keyframe (one file, one size); with 0.5 s segments the
        // second size would have been cut once more at 1.5 s: 4 files, not 3.
        #expect(wrote() == 3, "\(lines.all)")
        #expect(recorder.settings == fresh)
        #expect(lines.all.contains { $0.hasPrefix("recording: deleted ") }, "\(lines.all)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("elsewhere").path))
    }
}

#endif
