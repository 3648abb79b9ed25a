#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// SIGHUP with a new picture size (issue 33): the server (same process) restarts its encode, and a
/// viewer of `/live.ts` goes on over the same connection from the new encoder's keyframe, its
/// parameter sets in band: ffmpeg's copy of what it received has frames of both sizes and
/// decodes without an error; `/stats.json` shows the new size and one viewer served in all.
@Suite(.serialized) struct ServeEncodeRestartTests {
    @Test func aNewSizeRestartsTheEncodeAndTheTSViewerGoesOnOverItsConnection() throws {
        let dir = try Tools.temporaryDirectory("serve-encode-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("onair.yml")
        let port = try StreamTestPorts.free()
        let common = "listen: 127.0.0.1:\(port)\nfps: 15\nkeyint-duration: 1\npreset: ultrafast\nbitrate: 400k\n"
        try "size: 320x240\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        let server = try StreamTestProcess(
            Tools.onairExecutable, ["serve", "--config", file.path, "--duration", "14"],
            stderrPath: dir.appendingPathComponent("serve.log").path)
        defer { server.kill() }
        func statistics() -> [String: Any] {
            let reply = try? Tools.run("curl", ["-s", "-m", "5", "http://127.0.0.1:\(port)/stats.json"])
            return reply.flatMap { try? JSONSerialization.jsonObject(with: $0.stdout) as? [String: Any] } ?? [:]
        }
        func width() -> Int? { (statistics()["encoder"] as? [String: Any])?["video_width"] as? Int }
        #expect(waitUntil(timeout: 10) { width() == 320 }, "\(server.stderr)")
        let received = dir.appendingPathComponent("viewer.ts").path
        let viewer = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-i", "http://127.0.0.1:\(port)/live.ts", "-c", "copy",
                "-f", "mpegts", "-flush_packets", "1", "-y", received,
            ], stderrPath: dir.appendingPathComponent("viewer.log").path)
        defer { viewer.kill() }
        func size() -> Int { (try? FileManager.default.attributesOfItem(atPath: received)[.size] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 8) { size() > 60_000 }, "\(viewer.stderr)")

        try "size: 480x270\n\(common)".write(to: file, atomically: true, encoding: .utf8)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(
            waitUntil(timeout: 5) { server.stderr.contains("reload: restarted the encode for: size 320x240 → 480x270") },
            "\(server.stderr)")
        #expect(waitUntil(timeout: 5) { width() == 480 }, "\(server.stderr)")
        let atChange = size()
        #expect(waitUntil(timeout: 5) { size() > atChange + 60_000 }, "\(viewer.stderr)")
        let totals = statistics()["totals"] as? [String: Any] ?? [:]
        #expect(totals["served"] as? Int == 1 && totals["viewers"] as? Int == 1, "\(totals)")
        #expect(server.process.isRunning, "the server process ended")
        viewer.kill()

        let frames = try Tools.run(
            "ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height", "-of", "csv=p=0", received])
        let sizes = frames.stdoutText.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        #expect(sizes.contains("320,240") && sizes.contains("480,270"), "\(Set(sizes))")
        #expect(sizes.firstIndex(of: "480,270") ?? 0 > sizes.lastIndex(of: "320,240") ?? .max, "the sizes interleave")
        let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", received, "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "\(decode.stderr)")
    }
}
#endif
