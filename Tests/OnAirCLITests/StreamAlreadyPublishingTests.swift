#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// nginx-rtmp refuses a second publisher of a stream key it still holds ("Already publishing");
/// `onair stream` says what that means instead of only passing the server's words on.
@Suite(.enabled(if: StreamTestNginx.available, "needs nginx with the RTMP module"))
struct StreamAlreadyPublishingTests {
    @Test func aStreamKeyStillHeldIsExplained() throws {
        let nginx = try StreamTestNginx()
        let dir = try Tools.temporaryDirectory("stream-already")
        defer { try? FileManager.default.removeItem(at: dir) }
        // ffmpeg holds the stream key for the whole test.
        let holder = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi",
                "-i", "testsrc2=size=320x240:rate=30", "-t", "60", "-c:v", "libx264",
                "-preset", "ultrafast", "-f", "flv", nginx.url(),
            ],
            stderrPath: dir.appendingPathComponent("ffmpeg.log").path)
        defer { holder.kill() }
        letTimePass(2, "ffmpeg publishes the stream name first")
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "stream", "--duration", "3", "--size", "320x240", "--preset", "ultrafast",
                nginx.url(),
            ])
        print("second publisher: \(result.stderr.split(separator: "\n").last ?? "")")
        #expect(result.status != 0)
        #expect(result.stderr.contains("Already publishing"), "\(result.stderr)")
        #expect(result.stderr.contains("still holds the previous connection"), "\(result.stderr)")
    }
}
#endif
