#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// A receiver that stops reading: a loopback TCP listener that never accepts, so the kernel's
/// buffers fill and every send stalls. The stream must notice within --send-timeout, reconnect,
/// keep the local recording whole, and still finish on time.
@Suite struct StreamStallTests {
    @Test func aStalledReceiverIsDroppedAndReconnectedWhileTheRecordingKeepsEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("stream-stall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let listener = try LoopbackSocket()
        let port = listener.port
        let recording = dir.appendingPathComponent("rec.mp4").path
        let stats = dir.appendingPathComponent("stats.jsonl").path
        let started = Date()
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "stream", "--duration", "10", "--size", "320x240",
                "--bitrate", "4M", "--preset", "ultrafast", "--send-timeout", "1", "--stats-json", stats,
                "tcp://127.0.0.1:\(port)", "-o", recording,
            ])
        let took = Date().timeIntervalSince(started)
        withExtendedLifetime(listener) {}
        #expect(result.status == 0, "\(result.stderr)")
        #expect(took < 20, "a 10 s stream took \(took) s")
        #expect(result.stderr.contains("stalled"), "\(result.stderr)")
        let lines = try String(contentsOfFile: stats, encoding: .utf8).split(separator: "\n")
        let last = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        print(
            "stall: \(took) s, reconnects \(last["reconnects"] ?? "-"), offline \(last["offline_seconds"] ?? "-") s, dropped \(last["network_dropped_packets"] ?? "-")"
        )
        #expect((last["reconnects"] as? Int ?? 0) >= 1)
        let sync = try RecordCommandTests.syncReport(recording)
        let lateFrames = last["dropped_frames"] as? Int ?? 0
        // The recording is what this test guards: every captured frame is in it. (The flash at
        // second 0 was missed once in the sync analysis of such a file; it is not what is tested here.)
        #expect(
            (sync["dropped_frames"] as? Int ?? 99) <= lateFrames && (sync["frames"] as? Int ?? 0) >= 299,
            "\(sync); dropped before encoding: \(lateFrames)")
    }
}
#endif
