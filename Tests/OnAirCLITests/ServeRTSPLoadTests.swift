#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --rtsp-port` under load: 16 RTSP clients at once (8 over UDP, 8 interleaved over
/// TCP; ffmpeg copying, two `onair play --measure-latency` decoding) beside 4 HTTP viewers, and one
/// TCP client among them that stops reading.
@Suite(.serialized) struct ServeRTSPLoadTests {
    /// `onair play --measure-latency` of `url` for `seconds`, its JSON report written to `out`.
    static func player(_ url: String, seconds: Int, out: URL) throws -> StreamTestProcess {
        try StreamTestProcess(
            Tools.onairExecutable,
            ["play", "--no-display", "--measure-latency", "--json", "--duration", "\(seconds)", "--timeout", "20", url],
            stderrPath: out.path + ".log", stdoutPath: out.path)
    }

    /// The p50 latency (ms), frames measured and decode errors of a player's report.
    static func latency(_ out: URL) -> (p50: Double, samples: Int, errors: Int) {
        let report =
            (try? JSONSerialization.jsonObject(with: Data(contentsOf: out))) as? [String: Any] ?? [:]
        let latency = report["latency_ms"] as? [String: Any] ?? [:]
        return (latency["p50"] as? Double ?? .infinity, latency["samples"] as? Int ?? 0, report["decode_errors"] as? Int ?? -1)
    }

    // On gst-rtsp-server, under heavy machine load, one TCP copy once stopped getting data after
    // 27 frames on a connection that stayed open (gst-rtsp-server dropping its transport as too
    // slow without a word). The own server (RTSPLiveServer) has no such transport to lose: a TCP
    // client's packets wait only in its own output. The copy check below catches a short copy.
    // On the own server: UDP p50 71.8 → 72.7 ms, TCP 72.3 → 72.4 ms with the stall beside them.
    @Test(.longTier)
    func sixteenRTSPClientsBesideFourHTTPViewersKeepTheirLatencyWhileAStalledTCPClientIsSkippedAndCut() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-load")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        // 2 Mb/s and a 256 kB viewer queue: the stalled client's buffers fill within seconds.
        let (server, port) = try ServeRTSPTests.serve(
            dir, duration: 70,
            [
                "-o", recording, "--bitrate", "2000k", "--viewer-timeout", "3", "--viewer-queue", "262144",
                "--keyint-duration", "1", "--stats-json", dir.appendingPathComponent("stats.jsonl").path,
            ])
        let url = "rtsp://127.0.0.1:\(port)/live"
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }

        // 7 UDP and 6 TCP ffmpeg copies and 4 HTTP ffmpeg copies, connected through both phases.
        var copies: [(process: StreamTestProcess, out: String)] = []
        for index in 0..<13 {
            let transport = index < 7 ? "udp" : "tcp"
            let out = dir.appendingPathComponent("rtsp-\(transport)\(index).ts").path
            copies.append(
                (try ServeRTSPTests.ffmpeg(url, transport: transport, seconds: 36, out: out, log: URL(fileURLWithPath: out + ".log")), out))
        }
        for index in 0..<4 {
            let out = dir.appendingPathComponent("http\(index).ts").path
            let process = try StreamTestProcess(
                "ffmpeg",
                ["-hide_banner", "-nostdin", "-v", "error", "-i", server.url("/live.ts"), "-t", "36", "-c", "copy", "-y", out],
                stderrPath: out + ".log")
            copies.append((process, out))
        }
        #expect(waitUntil(timeout: 30) { totals()["viewers"] as? Int == 17 }, "\(totals())")

        // Before the stall: one UDP and one TCP player measure capture-to-decode latency (15 RTSP clients).
        let before = (udp: dir.appendingPathComponent("before-udp.json"), tcp: dir.appendingPathComponent("before-tcp.json"))
        let firstPlayers = [try Self.player(url, seconds: 8, out: before.udp), try Self.player(url + "?tcp", seconds: 8, out: before.tcp)]
        for player in firstPlayers { #expect(player.wait(timeout: 40), "onair play did not finish: \(player.stderr)") }

        // The stall: a TCP client reads 1 s, then stops reading for 20 s; the players measure again
        // meanwhile (16 RTSP clients at once).
        let stalled = try StreamTestProcess(
            "python3", [ServeRTSPTests.clients, "stall", "\(port)", "20"],
            stderrPath: dir.appendingPathComponent("stall.log").path,
            stdoutPath: dir.appendingPathComponent("stall.json").path)
        letTimePass(1.5, "the stalled client has stopped reading")
        let during = (udp: dir.appendingPathComponent("during-udp.json"), tcp: dir.appendingPathComponent("during-tcp.json"))
        let secondPlayers = [
            try Self.player(url, seconds: 10, out: during.udp), try Self.player(url + "?tcp", seconds: 10, out: during.tcp),
        ]
        #expect(waitUntil(timeout: 25) { (totals()["cut_too_slow"] as? Int ?? 0) >= 1 }, "the stalled client was never cut: \(totals())")
        for player in secondPlayers { #expect(player.wait(timeout: 40), "onair play did not finish: \(player.stderr)") }
        for copy in copies { #expect(copy.process.wait(timeout: 60), "a copy did not finish: \(copy.process.stderr)") }
        #expect(stalled.wait(timeout: 40))
        let after = totals()
        #expect(server.finish(timeout: 60), "serve did not stop: \(server.process.stderr)")

        // Cut as too slow, after skipping; the most served at once: 16 RTSP + 4 HTTP.
        #expect((after["skips_of_viewers_gone"] as? Int ?? 0) >= 1 && (after["peak_viewers"] as? Int ?? 0) >= 20, "\(after)")
        let stall = (try? JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("stall.json")))) as? [String: Any]
        #expect(stall?["play"] as? Int == 200 && stall?["closed"] as? Bool == true, "\(stall ?? [:])")

        // Latency kept: each player decoded clean, and its p50 during the stall is within 100 ms of
        // before it (a loaded 2-core machine moves a p50 by tens of ms between runs; a stall that
        // held the others up would add its whole backlog, seconds at 2 Mb/s).
        var figures: [String] = []
        for (name, first, second) in [("udp", before.udp, during.udp), ("tcp", before.tcp, during.tcp)] {
            let a = Self.latency(first), b = Self.latency(second)
            figures.append("\(name) p50 \(a.p50) → \(b.p50) ms (\(a.samples), \(b.samples) frames)")
            #expect(a.samples >= 60 && b.samples >= 75 && a.errors == 0 && b.errors == 0, "\(name): \(a) \(b)")
            #expect(b.p50 <= a.p50 + 100 && b.p50 < 500, "\(name): p50 \(a.p50) ms before the stall, \(b.p50) ms during it")
        }
        print("ServeRTSPLoadTests latency: \(figures.joined(separator: "; "))")

        // The recording has every encoded frame; every copy ≥ 95 % of what was encoded while it
        // was connected, decodable, from a keyframe.
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        let lines = try String(contentsOfFile: dir.appendingPathComponent("stats.jsonl").path, encoding: .utf8).split(separator: "\n")
        let final = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(recorded.frames == final["frames_out"] as? Int, "recording: \(recorded), encoded \(final["frames_out"] ?? "-")")
        let encodedRate = ServeRTSPTests.rate(recorded, fps: 15)
        for copy in copies {
            let coverage = try ServeCommandTests.videoCoverage(copy.out, fps: 15)
            #expect(
                coverage.frames >= 300 && coverage.firstIsKey && ServeRTSPTests.rate(coverage, fps: 15) >= 0.95 * encodedRate,
                "\(copy.out): \(coverage), recording \(recorded)")
            let errors = try ServeCommandTests.decodeErrors(copy.out)
            #expect(errors.isEmpty, "\(copy.out): \(errors)")
        }
    }
}
#endif
