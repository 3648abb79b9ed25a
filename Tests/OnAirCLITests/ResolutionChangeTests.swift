#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// A stream whose picture size changes mid-way, with the new parameter sets only in the
/// container's new sequence header (as an encoder restarted at another size sends them), plays
/// with no decode error: the demuxer's new-extradata side data reaches the decoder.
@Suite struct ResolutionChangeTests {
    /// 3 s each at 320x240, 640x360, 320x240, 640x360 (25 fps, a keyframe every second) in FLV,
    /// with the parameter sets taken out of the packets into FLV sequence headers.
    static func changingFLV(in dir: URL) throws -> String {
        var parts: [Data] = []
        for (index, size) in ["320x240", "640x360", "320x240", "640x360"].enumerated() {
            let part = dir.appendingPathComponent("part\(index).h264")
            try Tools.ffmpeg([
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25", "-t", "3", "-c:v", "libx264",
                "-preset", "ultrafast", "-g", "25", "-f", "h264", part.path,
            ])
            parts.append(try Data(contentsOf: part))
        }
        let joined = dir.appendingPathComponent("joined.h264")
        try parts.reduce(Data(), +).write(to: joined)
        let flv = dir.appendingPathComponent("changing.flv").path
        try Tools.ffmpeg([
            "-r", "25", "-f", "h264", "-i", joined.path, "-c", "copy",
            "-bsf:v", "extract_extradata=remove=1", flv,
        ])
        // ffmpeg itself decodes it cleanly: the file is sound.
        let reference = try Tools.run("ffmpeg", ["-v", "error", "-i", flv, "-f", "null", "-"])
        guard reference.status == 0, reference.stderr.isEmpty else { throw ToolError.failed("ffmpeg decode: \(reference.stderr)") }
        return flv
    }

    static func report(_ result: ProcessResult) throws -> [String: Any] {
        guard let line = result.stdoutText.split(separator: "\n").last,
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            throw ToolError.failed("no JSON report: \(result.stderr)")
        }
        return object
    }

    @Test func playedFromAFile() throws {
        let dir = try Tools.temporaryDirectory("resolution-file")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flv = try Self.changingFLV(in: dir)
        let report = try Self.report(try Tools.run(Tools.onairExecutable, ["play", flv, "--json"]))
        print("resolution change from a file: \(report.filter { $0.key != "video" })")
        #expect(report["frames"] as? Int == 300)
        #expect(report["decode_errors"] as? Int == 0)
        // Three changes of size, on one timeline (the timestamps run on).
        let changes = report["changes"] as? [String: Any] ?? [:]
        #expect(changes["picture_size"] as? Int == 3, "\(changes)")
        #expect(changes["timestamp_jumps"] as? Int == 0, "\(changes)")
    }

    @Test(.enabled(if: StreamTestNginx.available, "needs nginx with the RTMP module"))
    func playedOverRTMP() throws {
        let dir = try Tools.temporaryDirectory("resolution-rtmp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flv = try Self.changingFLV(in: dir)
        let nginx = try StreamTestNginx()
        let publisher = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-re", "-i", flv,
                "-c", "copy", "-f", "flv", nginx.url(),
            ],
            stderrPath: dir.appendingPathComponent("publisher.log").path)
        defer { publisher.kill() }
        // The player joins within the first seconds (nginx starts it at a keyframe) and stays past the end.
        letTimePass(0.3, "the publisher reaches nginx first")
        let played = try Tools.run(Tools.onairExecutable, ["play", nginx.url(), "--duration", "16", "--json"])
        let report = try Self.report(played)
        print("resolution change over RTMP: \(report.filter { $0.key != "video" })")
        // More than the last two parts (150 frames): the player was there for at least two changes.
        #expect((report["frames"] as? Int ?? 0) > 155, "\(played.stderr)")
        #expect(report["decode_errors"] as? Int == 0, "\(played.stderr)")
    }
}
#endif
