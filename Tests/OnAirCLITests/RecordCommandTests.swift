#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair record` with the synthetic source: frame counts, durations, sync, crash safety, overload.
@Suite struct RecordCommandTests {
    static func frames(_ path: String) throws -> (video: Int, videoDuration: Double, audioDuration: Double?) {
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", path])
        let streams = info["streams"] as? [[String: Any]] ?? []
        let video = streams.first { $0["codec_type"] as? String == "video" }
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        let count = Int(video?["nb_read_frames"] as? String ?? "") ?? 0
        return (count, Double(count) / 30, (audio?["duration"] as? String).flatMap(Double.init))
    }

    /// Decodes every stream fully; ffmpeg must print nothing at `-v error`.
    static func decodesCleanly(_ path: String) throws -> String {
        let result = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): \(result.stderr)"
    }

    static func syncReport(_ path: String) throws -> [String: Any] {
        let result = try Tools.run(Tools.onairExecutable, ["probe", "--sync", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    /// The last `--stats-json` line of a run.
    static func finalStatistics(_ path: String) throws -> [String: Any] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        guard let last = lines.last else { throw ToolError.failed("no statistics in \(path)") }
        return try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any] ?? [:]
    }

    @Test func tenSecondsAt720p30GiveThreeHundredFramesInEveryFile() throws {
        let dir = try Tools.temporaryDirectory("record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = ["a.mp4", "a.h264", "a.aac", "a.ts"].map { dir.appendingPathComponent($0).path }
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--duration", "10", "--size", "1280x720", "--fps", "30",
                "--stats-json", stats,
            ] + files.flatMap { ["-o", $0] })
        #expect(result.status == 0, "\(result.stderr)")
        for file in files {
            #expect(try Self.decodesCleanly(file).isEmpty, "\(file) decodes with errors")
        }
        // Every one of the 300 frames is in every file or counted as dropped: a loaded machine may
        // drop some in real time (an idle one drops none), but none goes missing unreported.
        let final = try Self.finalStatistics(stats)
        let dropped = final["dropped_frames"] as? Int ?? -1
        let encoded = final["frames_out"] as? Int ?? -1
        if dropped > 0 { print("record 10 s at 720p: \(dropped) frames dropped on this machine") }
        for file in [files[0], files[1], files[3]] {
            let counted = try Self.frames(file)
            #expect(counted.video == encoded, "\(file): \(counted.video) frames, \(encoded) encoded")
            #expect(abs(counted.video + dropped - 300) <= 2, "\(file): \(counted.video) frames + \(dropped) dropped")
        }
        let mp4 = try Self.frames(files[0])
        let audio = try #require(mp4.audioDuration)
        // Audio is never dropped: it covers the whole 10 s.
        #expect(abs(audio - 10) <= 1.0 / 30 + 1024.0 / 48_000, "audio \(audio) s")
        let adts = try Tools.ffprobeJSON(["-count_packets", "-show_streams", files[2]])
        let packets = Int(((adts["streams"] as? [[String: Any]])?.first?["nb_read_packets"] as? String) ?? "") ?? 0
        let adtsSeconds = Double(packets * 1024) / 48_000
        #expect(abs(adtsSeconds - 10) <= 1.0 / 30 + 2048.0 / 48_000, "ADTS: \(packets) frames")
        let sync = try Self.syncReport(files[0])
        print("record 10 s sync: \(sync.filter { $0.key != "offsets" })")
        #expect((sync["max_av_offset_ms"] as? Double ?? 99) <= 1000.0 / 30)
        // The frame codes show exactly the drops the statistics reported (those inside the file's span).
        let missing = sync["dropped_frames"] as? Int ?? -1
        let repeated = sync["repeated_frames"] as? Int ?? -1
        #expect(missing >= 0 && missing <= dropped, "\(missing) missing codes, \(dropped) dropped")
        #expect(repeated == 0)
        if dropped == 0 { #expect(missing == 0) }
    }

    @Test func threeMinutesFastAndTwelveSecondsRealTimeStayInSync() throws {
        let dir = try Tools.temporaryDirectory("record-sync")
        defer { try? FileManager.default.removeItem(at: dir) }
        let long = dir.appendingPathComponent("long.mp4").path
        let fast = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--fast", "--duration", "180", "--size", "320x240",
                "--preset", "ultrafast", "--bitrate", "400k", "-o", long,
            ])
        #expect(fast.status == 0, "\(fast.stderr)")
        let real = dir.appendingPathComponent("real.mp4").path
        let live = try Tools.run(Tools.onairExecutable, ["record", "--duration", "12", "--size", "640x360", "-o", real])
        #expect(live.status == 0, "\(live.stderr)")
        for (file, flashes) in [(long, 180), (real, 12)] {
            let sync = try Self.syncReport(file)
            print("\(file): \(sync.filter { $0.key != "offsets" })")
            #expect(sync["flashes"] as? Int == flashes && sync["beeps"] as? Int == flashes)
            #expect((sync["max_av_offset_ms"] as? Double ?? 99) <= 1000.0 / 30)
            #expect(sync["dropped_frames"] as? Int == 0 && sync["repeated_frames"] as? Int == 0)
        }
    }

    @Test func aKilledRecordingLeavesPlayableMP4AndTS() throws {
        let dir = try Tools.temporaryDirectory("record-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mp4 = dir.appendingPathComponent("k.mp4").path, ts = dir.appendingPathComponent("k.ts").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.onairExecutable)
        process.arguments = ["record", "--size", "640x360", "--keyint", "30", "-o", mp4, "-o", ts]
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        let started = Date()
        letTimePass(6, "six seconds recorded before the kill")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(started)
        for file in [mp4, ts] {
            #expect(try Self.decodesCleanly(file).isEmpty, "\(file) decodes with errors")
            let kept = try Self.frames(file).videoDuration
            print("killed after \(elapsed) s: \(file) holds \(kept) s")
            #expect(kept >= elapsed - 1.0 - 1.0, "\(file) holds \(kept) s of \(elapsed) s (one 1 s GOP plus start-up may be lost)")
        }
    }

    @Test func sigtermFinishesEveryFileCleanly() throws {
        let dir = try Tools.temporaryDirectory("record-term")
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = ["t.mp4", "t.flv", "t.ts", "t.h264", "t.aac"].map { dir.appendingPathComponent($0).path }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.onairExecutable)
        process.arguments = ["record", "--size", "320x240", "--faststart"] + files.flatMap { ["-o", $0] }
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        letTimePass(3, "three seconds recorded before SIGTERM")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for file in files {
            let errors = try Self.decodesCleanly(file)
            #expect(errors.isEmpty, "\(file) decodes with errors: \(errors)")
        }
        #expect(try Self.frames(files[0]).video >= 60)
    }
}

/// 1080p60 with a slow preset is more than two cores can encode: the session must stay in real
/// time by dropping (and reporting) late frames, keep every beep of the audio, and stay small.
@Suite struct RecordOverloadTests {
    @Test func overloadDropsVideoKeepsAudioAndStaysSmall() throws {
        let dir = try Tools.temporaryDirectory("record-overload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("o.mp4").path
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let started = Date()
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--duration", "10", "--size", "1920x1080", "--fps", "60",
                "--preset", "slow", "-o", output, "--stats-json", stats,
            ])
        let wall = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: stats, encoding: .utf8).split(separator: "\n")
        let last = try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any] ?? [:]
        let dropped = last["dropped_frames"] as? Int ?? 0
        let captured = last["frames_in"] as? Int ?? 0
        let peak =
            result.stderr.split(separator: "\n").last { $0.contains("peak memory") }
            .flatMap { line in line.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) } } ?? 0
        print(
            "overload: wall \(String(format: "%.1f", wall)) s, captured \(captured), encoded \(last["frames_out"] ?? 0), dropped \(dropped), peak memory \(peak) MB"
        )
        #expect(wall < 14, "the session keeps real time (10 s of media, start-up and drain included)")
        #expect(dropped > 0, "late frames are dropped and reported")
        let skipped = last["source_skipped_frames"] as? Int ?? 0
        #expect(abs(captured + skipped - 600) <= 3, "every capture slot is either captured or reported: \(captured) + \(skipped) of 600")
        let sync = try RecordCommandTests.syncReport(output)
        #expect(sync["beeps"] as? Int == 10, "audio is continuous: every beep is there")
        let audio = try #require(try RecordCommandTests.frames(output).audioDuration)
        #expect(abs(audio - 10) < 0.1, "audio covers the whole 10 s: \(audio) s")
        #expect(peak > 0 && peak < 300, "peak memory \(peak) MB")
    }
}
#endif
