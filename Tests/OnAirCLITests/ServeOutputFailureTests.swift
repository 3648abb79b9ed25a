#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve -o FILE` onto a full disk: the failure is named with its reason at once, the
/// viewers and the other recording carry on, and the command exits 1 naming the output.
@Suite struct ServeOutputFailureTests {
    @Test(.enabled(if: getuid() == 0, "mounting a 1 MB tmpfs needs root"))
    func aFullDiskUnderServeIsReportedAndTheRestCarriesOn() throws {
        let dir = try Tools.temporaryDirectory("serve-output-failure")
        let small = dir.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mounted = try Tools.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path])
        try #require(mounted.status == 0, "mount: \(mounted.stderr)")
        defer {
            _ = try? Tools.run("umount", [small.path])
            try? FileManager.default.removeItem(at: dir)
        }
        let full = small.appendingPathComponent("a.ts").path
        let other = dir.appendingPathComponent("b.ts").path
        // 8 s at 2 Mb/s is about 2 MB: the 1 MB disk fills after about four seconds.
        let server = try ServeTestServer(
            directory: dir, duration: 8,
            arguments: ["--bitrate", "2M", "-o", full, "-o", other])
        // A viewer watches across the moment the disk fills.
        let viewer = dir.appendingPathComponent("viewer.ts").path
        _ = try Tools.run("curl", ["-s", "-m", "6", "-o", viewer, server.url("/live.ts")])
        #expect(server.finish(timeout: 30))
        let log = try String(contentsOf: dir.appendingPathComponent("serve.log"), encoding: .utf8)
        let lines = log.split(separator: "\n").map(String.init)
        #expect(server.process.process.terminationStatus == 1, "\(log)")
        let report = lines.first { $0.contains("output failed") }
        #expect(report?.contains(full) == true && report?.contains("No space left on device") == true, "\(log)")
        // The failure was reported while serving went on, not only at the end.
        let reportIndex = lines.firstIndex { $0.contains("output failed") } ?? lines.count
        let stopIndex = lines.firstIndex { $0.hasPrefix("stopped") } ?? -1
        #expect(reportIndex < stopIndex, "\(log)")
        #expect(lines.last?.hasPrefix("onair: error:") == true && lines.last?.contains(full) == true, "\(log)")
        // The viewer got a stream that decodes, and the other recording has every encoded frame (8 s at 15 fps).
        let watched = try Tools.run("ffmpeg", ["-v", "error", "-i", viewer, "-f", "null", "-"])
        let watchedBytes = (try? Data(contentsOf: URL(fileURLWithPath: viewer)).count) ?? 0
        #expect(watched.status == 0 && watchedBytes > 100_000, "\(watchedBytes) bytes: \(watched.stderr)")
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", other])
        let frames = Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
        // Every frame the encoder made (a loaded machine may drop a late one before the encoder).
        let stopped = lines.first { $0.hasPrefix("stopped") } ?? ""
        let encoded = Int(stopped.split(separator: ":").dropFirst().first?.split(separator: " ").first ?? "") ?? -1
        #expect(frames == encoded && frames >= 110, "the other output has \(frames) frames of \(encoded): \(stopped)")
    }
}
#endif
