#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// An output that fails is named at once with the reason; the others are complete; exit status 1.
@Suite struct OutputFailureTests {
    @Test(.enabled(if: getuid() == 0, "mounting a 2 MB tmpfs needs root"))
    func aFullDiskFailsOneOutputAndTheOtherIsComplete() throws {
        let (dir, small) = try Self.mountSmallDisk("output-failure")
        defer { Self.unmount(dir, small) }
        let full = small.appendingPathComponent("a.mp4").path
        let other = dir.appendingPathComponent("b.mp4").path
        // 8 s at 4 Mb/s is about 4 MB: the tmpfs fills after about four seconds.
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--fast", "--duration", "8", "--size", "640x360",
                "--bitrate", "4M", "-o", full, "-o", other,
            ])
        print(result.stderr.split(separator: "\n").filter { !$0.hasPrefix("rec ") }.joined(separator: "\n"))
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        // Reported at once, on one line naming the output and the reason…
        let report = lines.first { $0.contains("output failed") }
        #expect(report?.contains(full) == true && report?.contains("No space left on device") == true, "\(result.stderr)")
        // …and again at the end, as the error that sets the exit status.
        let last = lines.last.map(String.init) ?? ""
        #expect(last.hasPrefix("onair: error:") && last.contains(full) && last.contains("No space left on device"), "\(last)")
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", other])
        let frames = Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
        #expect(frames == 240, "the other output has \(frames) frames")
        let clean = try Tools.run("ffmpeg", ["-v", "error", "-i", other, "-f", "null", "-"])
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "mounting a 2 MB tmpfs needs root"))
    func encodeCarriesOnPastAFullDisk() throws {
        let (dir, small) = try Self.mountSmallDisk("encode-failure")
        defer { Self.unmount(dir, small) }
        let clip = dir.appendingPathComponent("clip.mkv").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-f", "lavfi", "-i", "sine=sample_rate=48000",
            "-t", "8", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", clip,
        ])
        let full = small.appendingPathComponent("a.mp4").path
        let other = dir.appendingPathComponent("b.mp4").path
        let result = try Tools.run(Tools.onairExecutable, ["encode", clip, "--bitrate", "4M", "-o", full, "-o", other])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.contains { $0.contains("output failed") && $0.contains(full) && $0.contains("No space left on device") },
            "\(result.stderr)")
        #expect(lines.last?.hasPrefix("onair: error:") == true && lines.last?.contains(full) == true, "\(result.stderr)")
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", other])
        let frames = Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
        #expect(frames == 200, "the other output has \(frames) frames")
    }

    /// A temporary directory holding `small`, a tmpfs mounted for the test (`options`: its size and
    /// inode count, e.g. `size=2m`).
    static func mountSmallDisk(_ name: String, options: String = "size=2m") throws -> (dir: URL, small: URL) {
        let dir = try Tools.temporaryDirectory(name)
        let small = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mounted = try Tools.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", small.path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(at: dir)
            throw ToolError.failed("mount: \(mounted.stderr)")
        }
        return (dir, small)
    }

    /// Unmounts the tmpfs and removes the directory.
    static func unmount(_ dir: URL, _ small: URL) {
        _ = try? Tools.run("umount", [small.path])
        try? FileManager.default.removeItem(at: dir)
    }
}
#endif
