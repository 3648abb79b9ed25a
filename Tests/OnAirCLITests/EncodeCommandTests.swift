#if os(Linux)
import Foundation
import OnAirBitstream
import OnAirTestSupport
import Testing

/// `onair encode` end to end: every output type decodes, the settings show up in the stream.
@Suite struct EncodeCommandTests {
    /// A 3 s clip with video and audio made by ffmpeg.
    static func makeClip(in dir: URL, size: String = "320x240", rate: Int = 25, seconds: Int = 3) throws -> String {
        let path = dir.appendingPathComponent("clip.mp4").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=44100", "-t", String(seconds), "-ac", "2",
            "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path,
        ])
        return path
    }

    func encode(_ arguments: [String]) throws -> ProcessResult {
        try Tools.run(Tools.onairExecutable, ["encode"] + arguments)
    }

    @Test func everyOutputTypeDecodesFromOneEncode() throws {
        let dir = try Tools.temporaryDirectory("encode")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let outputs = ["out.mp4", "out.h264", "out.aac", "out.ts", "out.flv", "out.mov"].map { dir.appendingPathComponent($0).path }
        let result = try encode([clip] + outputs.flatMap { ["-o", $0] } + ["--bitrate", "500k", "--keyint", "25"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("done:"), "a progress/summary line on stderr")
        for output in outputs {
            let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "\(output): \(decode.stderr)")
            let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", output])
            let streams = info["streams"] as? [[String: Any]] ?? []
            if !output.hasSuffix(".aac") {
                let video = streams.first { $0["codec_type"] as? String == "video" }
                #expect(video?["width"] as? Int == 320 && video?["height"] as? Int == 240, "\(output) size")
                #expect(video?["nb_read_frames"] as? String == "75", "\(output): 75 frames")
            }
            if !output.hasSuffix(".h264") {
                let audio = streams.first { $0["codec_type"] as? String == "audio" }
                #expect(audio?["sample_rate"] as? String == "44100" && audio?["channels"] as? Int == 2, "\(output) audio")
            }
        }
        // The elementary stream repeats SPS and PPS in front of every IDR (3 here: frames 0, 25, 50).
        let units = AnnexB.split(Array(try Data(contentsOf: URL(fileURLWithPath: outputs[1]))))
        var idrs = 0
        for (index, unit) in units.enumerated() where unit.type == .idr {
            if index > 0, units[index - 1].type == .idr { continue }  // another slice of the same picture
            idrs += 1
            let before = units[..<index].suffix(3).map(\.type)
            #expect(before.contains(.sps) && before.contains(.pps), "SPS/PPS before IDR at unit \(index)")
        }
        #expect(idrs == 3)
    }

    @Test(arguments: [("main", "3.1", "Main", 31), ("high", "4.0", "High", 40), ("baseline", "3.0", "Constrained Baseline", 30)])
    func profileAndLevelReachTheStream(_ profile: String, _ level: String, _ name: String, _ idc: Int) throws {
        let dir = try Tools.temporaryDirectory("encode-profile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir, seconds: 1)
        let output = dir.appendingPathComponent("out.h264").path
        let result = try encode([clip, "-o", output, "--profile", profile, "--level", level, "--no-audio"])
        #expect(result.status == 0, "\(result.stderr)")
        let stream = (try Tools.ffprobeJSON(["-show_streams", output])["streams"] as? [[String: Any]])?.first
        #expect(stream?["profile"] as? String == name)
        #expect(stream?["level"] as? Int == idc)
    }

    @Test func forcedKeyFramesLandOnTheRequestedFrames() throws {
        let dir = try Tools.temporaryDirectory("encode-force")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let output = dir.appendingPathComponent("out.mp4").path
        let result = try encode([
            clip, "-o", output, "--no-audio", "--keyint", "1000", "--keyint-duration", "0",
            "--force-keyframe-at", "1,2.5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let frames =
            try Tools.ffprobeJSON(["-select_streams", "v", "-show_entries", "frame=key_frame", output])["frames"]
            as? [[String: Any]] ?? []
        let keys = frames.enumerated().filter { ($0.element["key_frame"] as? Int) == 1 }.map(\.offset)
        // 25 fps: 1 s is frame 25; the first frame at or after 2.5 s is frame 63 (2.52 s).
        #expect(keys == [0, 25, 63])
    }

    @Test(arguments: [
        (["--size", "641x480"], "width"),
        (["--bitrate", "0"], "averageBitRate"),
        (["--keyint", "0"], "maxKeyFrameInterval"),
        (["--profile", "baseline", "--bframes"], "allowFrameReordering"),
        (["--level", "3.0", "--size", "1920x1080"], "1920"),
        (["--bitrate", "2M", "--data-rate-limit", "100000:1"], "dataRateLimits"),
        (["--audio-rate", "44000"], "sampleRate"),
        (["--audio-channels", "7"], "channels"),
    ])
    func invalidSettingsExitWithStatus2AndOneLine(_ flags: [String], _ field: String) throws {
        let dir = try Tools.temporaryDirectory("encode-invalid")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir, seconds: 1)
        let output = dir.appendingPathComponent("out.mp4").path
        let result = try encode([clip, "-o", output] + flags)
        #expect(result.status == 2)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(field), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "no output is created for rejected settings")
    }

    @Test(arguments: [
        ("-an", ["--audio-rate", "12345678"], "sampleRate"),
        ("-an", ["--audio-channels", "7"], "channels"),
        ("-vn", ["--fps", "1000"], "expectedFrameRate"),
        ("-vn", ["--size", "641x480"], "width"),
    ])
    func flagsAreCheckedEvenForAStreamTheInputLacks(_ drop: String, _ flags: [String], _ field: String) throws {
        let dir = try Tools.temporaryDirectory("encode-missing-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir, seconds: 1)
        let single = dir.appendingPathComponent("single.mkv").path
        try Tools.ffmpeg(["-i", clip, "-c", "copy", drop, single])
        let output = dir.appendingPathComponent("out.mp4").path
        let result = try encode([single, "-o", output] + flags)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(field), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func namingAnEncoderThatCannotOpenSaysWhy() throws {
        let dir = try Tools.temporaryDirectory("encode-hw")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir, seconds: 1)
        // Injected: no hardware encoders here, whatever this machine has.
        let result = try Tools.run(
            "env",
            [
                "ONAIR_HARDWARE_ENCODERS=none", Tools.onairExecutable, "encode", clip,
                "-o", dir.appendingPathComponent("o.mp4").path, "--encoder", "h264_nvenc",
            ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("h264_nvenc") && result.stderr.contains("unavailable"), "\(result.stderr)")
    }
}
#endif
