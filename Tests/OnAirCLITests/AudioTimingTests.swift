#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Audio follows its source's timestamps: a hole in the input becomes silence and a drifting sample
/// clock is followed, so A/V stays within a frame (judged from ffmpeg-decoded timestamps).
@Suite struct AudioTimingTests {
    static let frame = 1000.0 / 30

    /// An 8 s synthetic recording (flash and beep at every whole second) with the audio between
    /// `holeStart` and `holeStart + length` s removed and the timestamps of the rest kept (PCM in Matroska).
    static func holeyInput(in dir: URL, holeStart: Double = 2.2, length: Double = 0.5) throws -> String {
        let source = dir.appendingPathComponent("source.mkv").path
        let made = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--fast", "--duration", "8", "--size", "320x180",
                "--preset", "ultrafast", "-o", source,
            ])
        guard made.status == 0 else { throw ToolError.failed("record: \(made.stderr)") }
        let holey = dir.appendingPathComponent("holey.mkv").path
        try Tools.ffmpeg([
            "-i", source, "-c:v", "copy", "-af",
            "aselect='not(between(t,\(holeStart),\(holeStart + length)))'", "-c:a", "pcm_s16le", holey,
        ])
        return holey
    }

    /// The longest step between consecutive audio packet timestamps of `path`, per ffprobe.
    static func longestAudioStep(_ path: String) throws -> Double {
        let result = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time",
                "-of", "csv=p=0", path,
            ])
        let times = result.stdoutText.split(separator: "\n").compactMap { Double($0) }
        return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
    }

    @Test func aHalfSecondAudioHoleThroughEncodeKeepsSync() throws {
        let dir = try Tools.temporaryDirectory("timing-encode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let holey = try Self.holeyInput(in: dir)
        #expect(try Self.longestAudioStep(holey) >= 0.45, "the input has no hole")
        let output = dir.appendingPathComponent("out.mp4").path
        let result = try Tools.run(Tools.onairExecutable, ["encode", holey, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let judged = try FFmpegSyncJudge.judge(output)
        print("encode through a hole: \(judged)")
        #expect(judged.offsetsMilliseconds.count >= 7, "\(judged)")
        #expect(judged.maximumOffsetMilliseconds <= Self.frame, "\(judged)")
        // Every second after the hole is there, so the hole was filled rather than closed up.
        #expect(judged.offsetsMilliseconds.contains { $0.time > 7 }, "\(judged)")
    }

    @Test func aHalfSecondAudioHoleThroughRecordKeepsSync() throws {
        let dir = try Tools.temporaryDirectory("timing-record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let holey = try Self.holeyInput(in: dir)
        let output = dir.appendingPathComponent("rec.mp4").path
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--video", "file:\(holey)", "--audio", "file:\(holey)",
                "--size", "320x180", "-o", output,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let judged = try FFmpegSyncJudge.judge(output)
        print("record --audio file: through a hole: \(judged)")
        // In real time a loaded machine may drop flash frames: the flashes that survive place the
        // video's whole seconds, and every beep (audio is never dropped) is judged against them.
        let grid = try #require(FFmpegSyncJudge.beepsAgainstVideoSeconds(judged), "no flash survived: \(judged)")
        print("beeps against the video's seconds: \(grid.offsets.map { String(format: "%.1f s %+.1f ms", $0.time, $0.offset) })")
        #expect(grid.flashSpread <= 2, "flashes off the video's whole seconds by \(grid.flashSpread) ms")
        #expect(grid.offsets.count >= 7, "\(judged)")
        #expect(grid.offsets.filter { $0.time > 3 }.count >= 4, "\(judged)")
        #expect(grid.offsets.allSatisfy { abs($0.offset) <= Self.frame }, "\(judged)")
    }

    @Test func probeSyncMeasuresWithTimestamps() throws {
        let dir = try Tools.temporaryDirectory("timing-probe")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 0.3 s hole: with the timestamps kept the file is in sync; closed up (the samples
        // re-stamped back to back) every later beep plays 0.3 s early, and probe --sync must say so.
        let holey = try Self.holeyInput(in: dir, holeStart: 2.2, length: 0.3)
        let closed = dir.appendingPathComponent("closed.mkv").path
        try Tools.ffmpeg(["-i", holey, "-c:v", "copy", "-af", "asetpts=N/SR/TB", "-c:a", "pcm_s16le", closed])
        func maximumOffset(_ path: String) throws -> Double {
            let result = try Tools.run(Tools.onairExecutable, ["probe", "--sync", "--json", path])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
            print("probe --sync \(path): \(report.filter { $0.key != "offsets" })")
            return report["max_av_offset_ms"] as? Double ?? .infinity
        }
        #expect(try maximumOffset(holey) <= 2)
        let shifted = try maximumOffset(closed)
        #expect(abs(shifted - 300) <= 25, "closed-up hole: \(shifted) ms")
    }

    @Test func threeMinutesAtPlus500PPMEndWithinOneFrame() throws {
        let dir = try Tools.temporaryDirectory("timing-drift")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("drift.mp4").path
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--fast", "--duration", "180", "--synthetic-audio-ppm", "500",
                "--size", "320x180", "--preset", "ultrafast", "--bitrate", "300k",
                "-o", output,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        // Counting samples would put the last beeps 90 ms (almost three frames) late; following the
        // timestamps keeps them on the flashes.
        let end = try FFmpegSyncJudge.judge(output, from: 165)
        print("+500 ppm, last 15 s: \(end)")
        #expect(end.offsetsMilliseconds.count >= 12, "\(end)")
        #expect(end.maximumOffsetMilliseconds <= Self.frame, "\(end)")
    }
}
#endif
