#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// A minute of viewer churn against `onair serve` (Tests/Tools/serve_churn.py, the generator of
/// bench/serve_churn.sh's 30-minute soak): viewers of HTTP-TS, fMP4, HLS and SRT come and go, a
/// third reset their connection, a few read slowly, and 2 × --max-viewers arrive at once.
@Suite(.serialized) struct ServeChurnTests {
    static let churn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/serve_churn.py").path

    @Test(.longTier)
    func viewerChurnLeaksNoDescriptorOrThreadAndTheRecordingKeepsEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-churn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.mp4").path
        // The server outlives the generator (60 s of churn, plus the quiet and the drain: at most
        // 4 minutes more); it is stopped with SIGINT.
        let server = try ServeTestServer(
            directory: dir, duration: 600,
            arguments: ["--max-viewers", "16", "--srt-port", "0", "-o", recording])
        let srtPort = try server.announcedPort("SRT callers: srt://")
        // Memory is judged by the 30-minute soak (a minute is too short for the allocator to
        // settle), so it is allowed anything here; descriptors and threads must come back exactly.
        let run = try Tools.run(
            "python3",
            [
                Self.churn, "--port", "\(server.port)", "--srt-port", "\(srtPort)",
                "--pid", "\(server.process.process.processIdentifier)", "--max-viewers", "16",
                "--seconds", "60", "--warmup", "20", "--burst-every", "15", "--seed", "23",
                "--rss-percent", "1000", "--out", dir.appendingPathComponent("churn").path,
            ])
        server.process.process.interrupt()
        #expect(server.process.wait(timeout: 60), "serve did not stop on SIGINT")
        let output = try JSONSerialization.jsonObject(with: run.stdout)
        let summary = try #require(output as? [String: Any], "\(run.stderr)")
        print(
            "serve churn: \(summary.filter { ["counts", "baseline", "final", "peak_viewers", "max_sampled", "decoded_by_kind"].contains($0.key) })"
        )
        #expect((summary["failures"] as? [String])?.isEmpty == true, "\(summary["failures"] ?? "-")")

        // No descriptor or thread left behind once every viewer is gone.
        let baseline = try #require(summary["baseline"] as? [String: Any], "no baseline sample without viewers")
        let final = try #require(summary["final"] as? [String: Any], "no final sample without viewers")
        #expect((final["fds"] as? Int ?? .max) <= (baseline["fds"] as? Int ?? 0), "fds \(baseline) → \(final)")
        #expect((final["threads"] as? Int ?? .max) <= (baseline["threads"] as? Int ?? 0), "threads \(baseline) → \(final)")
        // The high-water mark was reached (the burst) and never passed.
        let peak = summary["peak_viewers"] as? Int ?? 0
        let counts = summary["counts"] as? [String: Int] ?? [:]
        #expect(peak == 16, "high-water mark \(peak)")
        #expect((counts["refused"] ?? 0) + (counts["srt_refused"] ?? 0) >= 1 && (counts["bursts"] ?? 0) >= 2, "\(counts)")
        #expect((counts["left_abruptly"] ?? 0) >= 1 && (counts["served"] ?? 0) >= 10 && (counts["srt_served"] ?? 0) >= 1, "\(counts)")
        #expect(counts["errors"] == nil, "\(summary["viewer_errors"] ?? "-")")
        // Every sampled viewer's bytes decode cleanly.
        #expect(
            (summary["decoded"] as? Int ?? 0) >= 1 && (summary["decode_failures"] as? [Any])?.isEmpty == true,
            "\(summary["decode_failures"] ?? "-")")

        // The recording holds every frame the encoder made, in sync, nothing missing that was encoded.
        let stopped = try #require(server.process.stderr.split(separator: "\n").last { $0.hasPrefix("stopped") }.map(String.init))
        let numbers = stopped.split(separator: ":").dropFirst().joined().split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let encoded = try #require(numbers.first, "\(stopped)")
        let dropped = numbers.count > 2 ? numbers[2] : -1
        let packets = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-count_packets", "-select_streams", "v:0",
                "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", recording,
            ])
        #expect(Int(packets.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) == encoded, "\(packets.stdoutText) vs \(stopped)")
        let sync = try Tools.run(Tools.onairExecutable, ["probe", "--sync", "--json", recording])
        let parsed = try JSONSerialization.jsonObject(with: sync.stdout)
        let report = try #require(parsed as? [String: Any], "\(sync.stderr)")
        #expect((report["max_av_offset_ms"] as? Double ?? 1e9) < 1000.0 / 15, "\(report["max_av_offset_ms"] ?? "-")")
        #expect((report["dropped_frames"] as? Int ?? .max) <= dropped, "\(report["dropped_frames"] ?? "-") missing; \(stopped)")
        print("serve churn: \(stopped); probe --sync max offset \(report["max_av_offset_ms"] ?? "-") ms")
    }
}
#endif
