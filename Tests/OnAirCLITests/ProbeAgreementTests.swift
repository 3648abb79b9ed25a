#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// One file made by ffmpeg at test time for `onair probe` to read.
struct ProbeCase: Sendable, CustomTestStringConvertible {
    let name: String
    let fileExtension: String
    let ffmpegArguments: [String]
    var testDescription: String { name }

    static func video(
        _ name: String, size: String = "320x240", rate: String = "25", frames: Int = 30,
        ext: String = "h264", _ encoder: [String]
    ) -> ProbeCase {
        ProbeCase(
            name: name, fileExtension: ext,
            ffmpegArguments: [
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-frames:v", String(frames),
                "-c:v", "libx264", "-preset", "ultrafast",
            ] + encoder)
    }

    /// H.265 by libx265 (the independent encoder: ffmpeg's own call of it, not OnAir's).
    static func hevc(_ name: String, size: String = "320x240", ext: String, _ extra: [String] = []) -> ProbeCase {
        ProbeCase(
            name: "hevc \(name) .\(ext)", fileExtension: ext,
            ffmpegArguments: [
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-frames:v", "30",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error",
            ] + extra)
    }

    static func audio(rate: Int, channels: Int, ext: String = "aac") -> ProbeCase {
        ProbeCase(
            name: "aac \(rate) Hz \(channels) ch .\(ext)", fileExtension: ext,
            ffmpegArguments: [
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=1.5",
                "-af", "aformat=channel_layouts=\(layout(channels))",
                "-c:a", "aac", "-b:a", "\(16 * channels)k",
            ])
    }

    static func both(ext: String, _ extra: [String] = []) -> ProbeCase {
        ProbeCase(
            name: "h264+aac .\(ext)", fileExtension: ext,
            ffmpegArguments: [
                "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi",
                "-i", "sine=frequency=1000:sample_rate=48000", "-t", "2", "-ac", "2",
                "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-bf", "2", "-c:a", "aac", "-b:a", "96k",
            ] + extra)
    }

    static func layout(_ channels: Int) -> String {
        ["mono", "stereo", "2.1", "4.0", "5.0", "5.1", "6.1", "7.1"][channels - 1]
    }
}

let probeCases: [ProbeCase] = [
    .video("constrained baseline 3.0", size: "640x360", ["-profile:v", "baseline", "-level", "3.0"]),
    .video(
        "main 3.1 with B-frames", size: "1280x720", rate: "30", frames: 20,
        ["-preset", "fast", "-profile:v", "main", "-level", "3.1", "-bf", "3", "-g", "8"]),
    .video("high 4.0 1080p cropped", size: "1920x1080", frames: 10, ["-profile:v", "high", "-level", "4.0"]),
    .video(
        "high 4.1 slices AUD SEI", size: "1280x720", rate: "50",
        ["-profile:v", "high", "-level", "4.1", "-x264-params", "slices=4:aud=1", "-g", "12"]),
    .video("high 10", ["-pix_fmt", "yuv420p10le", "-profile:v", "high10"]),
    .video("high 4:2:2", ["-pix_fmt", "yuv422p", "-profile:v", "high422"]),
    .video("high 4:4:4 odd size", size: "321x241", ["-pix_fmt", "yuv444p", "-profile:v", "high444"]),
    .video("high 4:4:4 lossless", ["-pix_fmt", "yuv444p", "-qp", "0"]),
    .video("odd 4:2:0 size cropped", size: "642x362", ["-g", "7"]),
    .video("interlaced", size: "720x576", ["-preset", "fast", "-flags", "+ildct+ilme", "-x264-params", "interlaced=1:tff=1"]),
    .video("intra only", ["-x264-params", "keyint=1"]),
    .video("29.97 fps", rate: "30000/1001", ["-bf", "2"]),
    .video("in mp4", ext: "mp4", ["-bf", "2", "-g", "10"]),
    .audio(rate: 8000, channels: 1), .audio(rate: 11025, channels: 2), .audio(rate: 16000, channels: 2),
    .audio(rate: 22050, channels: 1), .audio(rate: 24000, channels: 6), .audio(rate: 32000, channels: 2),
    .audio(rate: 44100, channels: 2), .audio(rate: 48000, channels: 6), .audio(rate: 48000, channels: 8),
    .audio(rate: 64000, channels: 1), .audio(rate: 88200, channels: 2), .audio(rate: 96000, channels: 2),
    .audio(rate: 44100, channels: 2, ext: "m4a"),
    .both(ext: "mp4"), .both(ext: "mov"), .both(ext: "ts"), .both(ext: "flv"),
    .hevc("main", ext: "h265"), .hevc("main cropped, B-frames, GOP 10", size: "642x362", ext: "hevc", ["-g", "10", "-bf", "3"]),
    .hevc("main hvc1", ext: "mp4", ["-tag:v", "hvc1"]), .hevc("main", ext: "mkv"),
    .hevc("main 10", ext: "ts", ["-pix_fmt", "yuv420p10le"]),
]

@Suite struct ProbeAgreementTests {
    /// `onair probe --json` gives the same profile, level, size, rate, counts and duration as ffprobe.
    @Test(arguments: probeCases)
    func agreesWithFFprobe(_ probeCase: ProbeCase) throws {
        let dir = try Tools.temporaryDirectory("probe")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("in.\(probeCase.fileExtension)").path
        try Tools.ffmpeg(probeCase.ffmpegArguments + [file])

        let ours = try onairProbe(file)
        let theirs = try FFprobeSummary(path: file)
        #expect(ours.count == theirs.streams.count, "stream count")
        for (mine, reference) in zip(ours, theirs.streams) {
            for field in reference.keys.sorted() {
                let expected = reference[field]!
                let actual = mine[field]
                #expect(
                    FieldComparison.agrees(field, actual, expected),
                    "\(field): onair \(String(describing: actual)) vs ffprobe \(expected)")
            }
        }
    }

    func onairProbe(_ file: String) throws -> [[String: Any]] {
        let result = try Tools.run(Tools.onairExecutable, ["probe", "--json", file])
        #expect(result.status == 0, "onair probe failed: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        return json?["streams"] as? [[String: Any]] ?? []
    }
}
#endif
