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
}

#endif
