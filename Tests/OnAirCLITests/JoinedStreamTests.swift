#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Recordings joined byte for byte — the picture size and parameter sets change at the join and
/// the timestamps jump back to the start — play in `onair play` as in ffmpeg: no decode error,
/// every frame, one continuous timeline with sound and picture in sync after the join, and the
/// report counts the change. (A change inside one stream, new parameter sets in FLV sequence
/// headers: `ResolutionChangeTests`.)
@Suite struct JoinedStreamTests {
    /// `parts` (each a list of ffmpeg arguments making one MPEG-TS file) joined byte for byte.
    static func joined(_ parts: [[String]], in dir: URL) throws -> String {
        var bytes = Data()
        for (index, arguments) in parts.enumerated() {
            let part = dir.appendingPathComponent("part\(index).ts").path
            try Tools.ffmpeg(arguments + [part])
            bytes += try Data(contentsOf: URL(fileURLWithPath: part))
        }
        let path = dir.appendingPathComponent("joined.ts").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// 4 s of testsrc2 at `size` and a tone, H.264 with B-frames (a keyframe every second) and AAC.
    static func testSource(size: String) -> [String] {
        [
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", "4", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-c:a", "aac", "-f", "mpegts",
        ]
    }

    /// Video frames ffmpeg decodes from `path`, after checking it decodes with no error at all.
    static func ffmpegFrames(_ path: String) throws -> Int {
        let errors = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
        // ffmpeg's null muxer complains when its own shift at the join overlaps the audio: not decoding.
        let decoding = errors.stderr.split(separator: "\n").filter { !$0.contains("non monotonically increasing dts to muxer") }
        guard errors.status == 0, decoding.isEmpty else { throw ToolError.failed("ffmpeg decode of \(path): \(errors.stderr)") }
        let probe = try Tools.ffprobeJSON(["-select_streams", "v", "-count_frames", "-show_entries", "stream=nb_read_frames", path])
        let streams = probe["streams"] as? [[String: Any]] ?? []
        return streams.compactMap { ($0["nb_read_frames"] as? String).flatMap(Int.init) }.reduce(0, +)
    }

    static func changes(_ report: [String: Any]) -> [String: Any] { report["changes"] as? [String: Any] ?? [:] }

    @Test func twoSizesJoinedPlayWithoutAnErrorAndTheChangeIsCounted() throws {
        let dir = try Tools.temporaryDirectory("joined-sizes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = try Self.joined([Self.testSource(size: "320x240"), Self.testSource(size: "640x360")], in: dir)
        let reference = try Self.ffmpegFrames(joined)
        let copy = dir.appendingPathComponent("copy.mp4").path
        let played = try Tools.run(Tools.onairExecutable, ["play", joined, "--no-display", "--json", "-o", copy])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try ResolutionChangeTests.report(played)
        print("joined sizes: ffmpeg \(reference) frames; onair \(report.filter { $0.key != "video" })")
        #expect(report["decode_errors"] as? Int == 0, "\(played.stderr)")
        #expect(abs((report["frames"] as? Int ?? 0) - reference) <= 2, "ffmpeg decodes \(reference) frames")
        #expect(report["freezes"] as? Int == 0)
        let changes = Self.changes(report)
        #expect(changes["picture_size"] as? Int == 1, "\(changes)")
        #expect(changes["picture_sizes"] as? [String] == ["320x240", "640x360"], "\(changes)")
        #expect(changes["timestamp_jumps"] as? Int == 1, "\(changes)")
        // One timeline: 8 s at 25 fps, not two 4-second spans laid over each other.
        #expect(abs((report["duration"] as? Double ?? 0) - 8) < 0.2)
        #expect(abs((report["fps"] as? Double ?? 0) - 25) < 0.5)
        // The copy's timestamps rise across the join: ffmpeg decodes it whole, 8 s long.
        #expect(try Self.ffmpegFrames(copy) == reference)
        let streams = try Tools.ffprobeJSON(["-show_entries", "stream=duration", copy])["streams"] as? [[String: Any]] ?? []
        let durations = streams.compactMap { ($0["duration"] as? String).flatMap(Double.init) }
        #expect(durations.count == 2 && durations.allSatisfy { abs($0 - 8) < 0.2 }, "\(streams)")
    }

    @Test func aNewProgramInAJoinedStreamTakesOver() throws {
        let dir = try Tools.temporaryDirectory("joined-program")
        defer { try? FileManager.default.removeItem(at: dir) }
        // The second recording is another program: other PIDs, another service id.
        let joined = try Self.joined(
            [
                Self.testSource(size: "320x240"),
                Self.testSource(size: "640x360") + [
                    "-mpegts_service_id", "7", "-mpegts_pmt_start_pid", "0x1200",
                    "-mpegts_start_pid", "0x300",
                ],
            ], in: dir)
        let copy = dir.appendingPathComponent("copy.mp4").path
        let played = try Tools.run(Tools.onairExecutable, ["play", joined, "--no-display", "--json", "-o", copy])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try ResolutionChangeTests.report(played)
        print("joined programs: \(report.filter { $0.key != "video" })")
        #expect(report["decode_errors"] as? Int == 0)
        // ffmpeg picks one program's video (100 frames); onair follows the second when the first
        // falls silent. The first program's last two frames come out of the demuxer only at the
        // end of the file (nothing closes its last PES) and are left out.
        #expect((report["frames"] as? Int ?? 0) >= 197, "\(played.stderr)")
        let changes = Self.changes(report)
        #expect(changes["picture_size"] as? Int == 1, "\(changes)")
        #expect(changes["timestamp_jumps"] as? Int == 1, "\(changes)")
        #expect(try Self.ffmpegFrames(copy) == report["frames"] as? Int)
    }

    @Test func aY4MOutputKeepsTheFirstPictureSize() throws {
        let dir = try Tools.temporaryDirectory("joined-y4m")
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = try Self.joined([Self.testSource(size: "320x240"), Self.testSource(size: "640x360")], in: dir)
        let y4m = dir.appendingPathComponent("out.y4m").path
        let played = try Tools.run(Tools.onairExecutable, ["play", joined, "--no-display", "--json", "-o", y4m])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try ResolutionChangeTests.report(played)
        // A .y4m file has one size: the 640x360 part is scaled to 320x240, every frame written.
        let probe = try Tools.ffprobeJSON(["-count_frames", "-show_entries", "stream=width,height,nb_read_frames", y4m])
        let stream = (probe["streams"] as? [[String: Any]])?.first ?? [:]
        #expect(stream["width"] as? Int == 320)
        #expect(stream["height"] as? Int == 240)
        #expect((stream["nb_read_frames"] as? String).flatMap(Int.init) == report["frames"] as? Int)
        // The last frame is the second part's picture scaled, as ffmpeg scales it to that size.
        let ours = try Self.lastGrayFrame(y4m)
        let ffmpegs = try Self.lastGrayFrame(joined)
        let difference = zip(ours, ffmpegs).map { abs(Int($0) - Int($1)) }.reduce(0, +) / max(ours.count, 1)
        #expect(difference <= 2, "mean difference \(difference) grey levels from ffmpeg's scaled frame")
    }

    /// The last frame of `path` decoded by ffmpeg and scaled to 320x240, as grey bytes. (ffmpeg
    /// builds its filters again at a change of size, so a frame is found by its place at the end.)
    static func lastGrayFrame(_ path: String) throws -> [UInt8] {
        let size = 320 * 240
        let result = try Tools.run(
            "ffmpeg",
            [
                "-v", "error", "-i", path, "-vf", "scale=320:240", "-vsync", "passthrough",
                "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1",
            ])
        guard result.status == 0, result.stdout.count >= size, result.stdout.count % size == 0 else {
            throw ToolError.failed("frames of \(path): \(result.stderr) (\(result.stdout.count) bytes)")
        }
        return [UInt8](result.stdout.suffix(size))
    }

    /// Two recordings of the synthetic source (a flash and a beep each second, a code in every
    /// frame), 320x240 then 640x360, each starting at time 0.
    static func joinedSynthetic(in dir: URL) throws -> String {
        var bytes = Data()
        for (index, size) in ["320x240", "640x360"].enumerated() {
            let part = dir.appendingPathComponent("synthetic\(index).ts").path
            let made = try Tools.run(
                Tools.onairExecutable,
                [
                    "record", "--fast", "--duration", "4", "--size", size,
                    "--fps", "25", "-o", part,
                ])
            guard made.status == 0 else { throw ToolError.failed("record: \(made.stderr)") }
            bytes += try Data(contentsOf: URL(fileURLWithPath: part))
        }
        let path = dir.appendingPathComponent("synthetic.ts").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func sync(_ path: String) throws -> [String: Any] {
        let probed = try Tools.run(Tools.onairExecutable, ["probe", "--sync", path, "--json"])
        guard probed.status == 0 else { throw ToolError.failed("probe --sync \(path): \(probed.stderr)") }
        return try JSONSerialization.jsonObject(with: probed.stdout) as? [String: Any] ?? [:]
    }

    static func offsets(_ sync: [String: Any]) -> [Double] {
        (sync["offsets"] as? [[String: Any]] ?? []).compactMap { $0["offset_ms"] as? Double }
    }

    @Test func joinedSyntheticRecordingsStayInSyncAfterTheJump() throws {
        let dir = try Tools.temporaryDirectory("joined-synthetic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let joined = try Self.joinedSynthetic(in: dir)
        // ffmpeg's own copy of the joined file (its discontinuity handling shifts the second part).
        let reference = dir.appendingPathComponent("reference.mp4").path
        try Tools.ffmpeg(["-i", joined, "-c", "copy", reference])
        let ffmpegOffsets = Self.offsets(try Self.sync(reference))
        let copy = dir.appendingPathComponent("copy.mp4").path
        let played = try Tools.run(Tools.onairExecutable, ["play", joined, "--no-display", "--json", "-o", copy])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try ResolutionChangeTests.report(played)
        let sync = try Self.sync(copy)
        let offsets = Self.offsets(sync)
        print("joined synthetic: A/V offsets (ms) ffmpeg \(ffmpegOffsets), onair \(offsets); \(report.filter { $0.key != "video" })")
        #expect(report["decode_errors"] as? Int == 0)
        #expect(report["frames"] as? Int == 200)
        // No freeze at the join: the second part follows the first on one timeline.
        #expect(report["freezes"] as? Int == 0)
        #expect(Self.changes(report)["timestamp_jumps"] as? Int == 1)
        #expect(sync["dropped_frames"] as? Int == 0)
        // Every second after the first has its flash paired with its beep, the four after the
        // join too (the copy starts at the first picture, after the first beep), each within a
        // frame (40 ms) — as in ffmpeg's copy.
        #expect(offsets.count >= 7, "\(sync)")
        #expect(ffmpegOffsets.count >= 7)
        for offset in offsets + ffmpegOffsets { #expect(abs(offset) < 40, "\(offsets) \(ffmpegOffsets)") }
    }

    /// In the window, with sound: a 5-second recording of the synthetic source joined to a
    /// 9-second one (the same size, the timestamps starting again at 0). The screen and the sound
    /// are recorded from 4 s of playback on (later when a loaded machine starts ffmpeg late): the
    /// flashes of the second recording pair with its beeps as ffplay's do playing it alone on the
    /// same rig, and the window showed the frames on across the join.
    @Test(.enabled(if: PlayerScreenTests.ffplayAvailable, "needs Xvfb, pulseaudio, ffmpeg and ffplay"))
    func inTheWindowSoundAndPictureStayInSyncAcrossTheJoin() throws {
        let dir = try Tools.temporaryDirectory("joined-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Data()
        var parts: [String] = []
        for (index, seconds) in [5, 9].enumerated() {
            let part = dir.appendingPathComponent("part\(index).ts").path
            let made = try Tools.run(
                Tools.onairExecutable,
                [
                    "record", "--fast", "--duration", "\(seconds)", "--size",
                    "\(PlayerScreenTests.size.width)x\(PlayerScreenTests.size.height)", "-o", part,
                ])
            #expect(made.status == 0, "\(made.stderr)")
            bytes += try Data(contentsOf: URL(fileURLWithPath: part))
            parts.append(part)
        }
        let joined = dir.appendingPathComponent("joined.ts").path
        try bytes.write(to: URL(fileURLWithPath: joined))
        let reference = try PlayerScreenTests.watch(
            [
                "ffplay", "-hide_banner", "-loglevel", "error", "-autoexit", "-left", "0",
                "-top", "0", "-noborder", "-x", "\(PlayerScreenTests.size.width)", "-y",
                "\(PlayerScreenTests.size.height)", "URL",
            ], file: parts[1])
        let ours = try PlayerScreenTests.watch([Tools.onairExecutable, "play", "URL", "--json"], file: joined)
        let rig = try #require(reference.offsets.min(by: { abs($0) < abs($1) }), "ffplay's pairings: \(reference.sync)")
        // Seconds 0-3 of the capture clock are the second recording's: the first one's passed
        // before the screen recording began.
        let pairings = ours.sync["offsets"] as? [[String: Any]] ?? []
        let after = pairings.filter { ($0["second"] as? Int ?? 99) < 4 }.compactMap { $0["offset_ms"] as? Double }.sorted()
        #expect(ours.played.status == 0, "\(ours.played.stderr)")
        let report = try JSONSerialization.jsonObject(with: ours.played.stdout) as? [String: Any] ?? [:]
        let display = report["display"] as? [String: Any] ?? [:]
        print("across the join: rig \(rig) ms; onair \(pairings); screen \(ours.screen.filter { $0.key != "sync" }); display \(display)")
        #expect(Self.changes(report)["timestamp_jumps"] as? Int == 1)
        #expect(after.count >= 2, "flashes paired with beeps after the join: \(ours.sync)")
        // The median within a frame (33 ms at 30 fps) of the rig plus x11grab's sampling (16.7 ms):
        // the rig is ffplay's own pairing, itself sampled by x11grab, and was seen 30 ms off zero
        // while ours sat at +4…+16 ms. A join that loses sync is off by hundreds of milliseconds.
        // Each pairing within two frames.
        if !after.isEmpty { #expect(abs(after[after.count / 2] - rig) <= 1000.0 / 30 + 1000.0 / 60, "median of \(after), rig \(rig) ms") }
        for offset in after { #expect(abs(offset - rig) <= 2000 / 30, "A/V offset \(offset) ms, rig \(rig) ms") }
        // The window went on across the join: every frame shown or counted as dropped, most shown
        // (an idle machine shows all 420; with several sessions' tests at a load of 15-25 on two
        // cores, 356 were shown and 64 dropped late).
        let frames = report["frames"] as? Int ?? 0
        let shown = display["frames_shown"] as? Int ?? 0
        let dropped = (display["frames_dropped_late"] as? Int ?? 0) + (display["frames_dropped_catch_up"] as? Int ?? 0)
        #expect(frames == 14 * 30 && shown + dropped == frames, "\(display)")
        #expect(shown >= frames * 3 / 4, "\(display)")
    }
}
#endif
