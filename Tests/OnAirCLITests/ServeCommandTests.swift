#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve` with real viewers: ffmpeg on /live.ts and /live.mp4, ffprobe on HLS, a throttled
/// reader and hostile clients (Tests/Tools/serve_clients.py), all on loopback.
@Suite(.serialized) struct ServeCommandTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/serve_clients.py").path

    /// Video packets of `path`'s first video stream: count, and how many the time span says
    /// there should be at `fps` (gaps show as a shortfall).
    static func videoCoverage(_ path: String, fps: Double) throws -> (frames: Int, expected: Int, firstIsKey: Bool, largestGap: Double) {
        let result = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags",
                "-of", "csv=p=0", path,
            ])
        let rows = result.stdoutText.split(separator: "\n").map { $0.split(separator: ",") }
        let times = rows.compactMap { $0.first.flatMap { Double($0) } }
        guard let first = times.min(), let last = times.max() else { return (0, 0, false, 0) }
        let sorted = times.sorted()
        let gap = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.max() ?? 0
        return (times.count, Int(((last - first) * fps).rounded()) + 1, rows.first?.last?.hasPrefix("K") ?? false, gap)
    }

    /// What ffmpeg says when decoding all of `path` (empty when it decodes cleanly).
    static func decodeErrors(_ path: String) throws -> String {
        try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", path, "-f", "null", "-"]).stderr
    }

    @Test func manyViewersSlowAndHostileClientsWhileARecordingKeepsEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-many")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        let server = try ServeTestServer(
            directory: dir, duration: 36,
            arguments: [
                "--max-viewers", "18", "--srt-port", "0", "--viewer-timeout", "5", "--keyint-duration", "1",
                "--viewer-queue", "393216", "-o", recording,
                "--stats-json", dir.appendingPathComponent("stats.jsonl").path,
            ])
        let srtPort = try server.announcedPort("SRT callers: srt://")
        // A viewer reading at a tenth of the bitrate first, then 14 ffmpeg viewers (10 TS, 1 fMP4
        // over HTTP, 3 SRT callers), `onair play` measuring its latency, and hostile clients.
        let throttled = try StreamTestProcess(
            "python3", [Self.clients, "throttle", "\(server.port)", "/live.ts", "7500", "28"],
            stderrPath: dir.appendingPathComponent("throttle.log").path,
            stdoutPath: dir.appendingPathComponent("throttle.json").path)
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }
        #expect(waitUntil(timeout: 15) { totals()["served"] as? Int == 1 }, "the throttled viewer never arrived")
        var viewers: [(StreamTestProcess, String)] = []
        for index in 0..<14 {
            let format = index == 10 ? "mp4" : "ts"
            let url = index > 10 ? "srt://127.0.0.1:\(srtPort)?mode=caller" : server.url("/live.\(format)")
            let out = dir.appendingPathComponent("viewer\(index).\(format)").path
            let viewer = try StreamTestProcess(
                "ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-i", url,
                    "-t", "10", "-c", "copy", "-y", out,
                ],
                stderrPath: dir.appendingPathComponent("viewer\(index).log").path)
            viewers.append((viewer, out))
        }
        let player = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "play", "--measure-latency", "--json", "--duration", "10",
                "--timeout", "20", server.url("/live.ts"),
            ],
            stderrPath: dir.appendingPathComponent("play.log").path,
            stdoutPath: dir.appendingPathComponent("play.json").path)
        let hostile = try StreamTestProcess(
            "python3", [Self.clients, "hostile", "\(server.port)"],
            stderrPath: dir.appendingPathComponent("hostile.log").path,
            stdoutPath: dir.appendingPathComponent("hostile.json").path)
        #expect(
            waitUntil(timeout: 20) { totals()["served"] as? Int == 16 },
            "\(totals()); serve: \(server.process.stderr.split(separator: "\n").filter { !$0.hasPrefix("serve ") }.prefix(8))")
        // Beyond --max-viewers: fill the slots left (again if the slow one was cut meanwhile),
        // then one more is refused.
        var extra: [StreamTestProcess] = []
        for _ in 0..<3 where totals()["viewers"] as? Int != 18 {
            let free = 18 - (totals()["viewers"] as? Int ?? 18)
            extra += try (0..<max(0, free)).map { _ in
                try StreamTestProcess(
                    "curl", ["-s", "-m", "6", "-o", "/dev/null", server.url("/live.ts")],
                    stderrPath: dir.appendingPathComponent("extra.log").path)
            }
            _ = waitUntil(timeout: 3) { totals()["viewers"] as? Int == 18 }
        }
        let refused = try server.get("/live.ts")
        #expect(refused.status == 503, "viewer beyond --max-viewers got \(refused.status)")
        let during = try server.statistics()
        let duringViewers = during["viewers"] as? [[String: Any]] ?? []
        let srtEntries = duringViewers.filter { $0["transport"] as? String == "srt" }
        #expect(
            srtEntries.count == 3 && srtEntries.allSatisfy { $0["rtt_ms"] is Double && $0["send_buffer_ms"] is Double },
            "\(srtEntries)")
        for (viewer, _) in viewers { #expect(viewer.wait(timeout: 40), "an ffmpeg viewer did not finish: \(viewer.stderr)") }
        #expect(throttled.wait(timeout: 40))
        #expect(player.wait(timeout: 40), "onair play did not finish: \(player.stderr)")
        #expect(hostile.wait(timeout: 90))
        let after = try server.statistics()
        _ = extra.map { $0.wait(timeout: 10) }
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")

        // Every viewer got every frame the encoder made while it was connected: its largest gap
        // between frames is no larger than the recording's (on a loaded machine the encoder itself
        // drops late frames, which no viewer can have), and it decodes without an error.
        let lines = try String(contentsOfFile: dir.appendingPathComponent("stats.jsonl").path, encoding: .utf8).split(separator: "\n")
        let final = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let recorded = try Self.videoCoverage(recording, fps: 15)
        #expect(
            recorded.frames >= 100 && recorded.frames == final["frames_out"] as? Int,
            "recording: \(recorded), encoded \(final["frames_out"] ?? "-")")
        for (viewer, out) in viewers {
            #expect(viewer.process.terminationStatus == 0, "\(viewer.stderr)")
            let coverage = try Self.videoCoverage(out, fps: 15)
            #expect(
                coverage.frames >= 10 && coverage.largestGap <= recorded.largestGap + 1.5 / 15,
                "\(out): \(coverage.frames) frames, largest gap \(coverage.largestGap) s (recording \(recorded.largestGap) s)")
            #expect(coverage.firstIsKey, "\(out) does not start on a keyframe")
            let errors = try Self.decodeErrors(out)
            #expect(errors.isEmpty, "\(out): \(errors)")
        }
        // The slow reader skipped and was cut; the others were not.
        // (The slow reader itself sees the end only once it has drained the kernel's buffers.)
        let slow = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("throttle.json"))) as? [String: Any]
        let finalTotals = after["totals"] as? [String: Any] ?? [:]
        #expect(
            (finalTotals["cut_too_slow"] as? Int ?? 0) >= 1 && (finalTotals["skips_of_viewers_gone"] as? Int ?? 0) >= 1, "\(finalTotals)")
        #expect((slow?["bytes"] as? Int ?? .max) < 28 * 90_000 / 3, "the throttled reader got \(String(describing: slow))")
        #expect((finalTotals["refused_full"] as? Int ?? 0) >= 1 && finalTotals["served"] as? Int == 16 + extra.count, "\(finalTotals)")
        print("serve: during \(duringViewers.count) viewers, totals after \(finalTotals), slow reader \(String(describing: slow))")
        let played =
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("play.json"))) as? [String: Any] ?? [:]
        let latency = played["latency_ms"] as? [String: Any] ?? [:]
        print("serve: onair play \(played["frames"] ?? "-") frames, latency \(latency)")
        #expect(played["decode_errors"] as? Int == 0 && (played["frames"] as? Int ?? 0) >= 30, "\(played)")
        #expect((latency["p50"] as? Double ?? 1e9) < 1500, "viewer latency \(latency)")
        // Hostile clients: refused, none served.
        let hostileResult =
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("hostile.json"))) as? [String: Any] ?? [:]
        print("hostile: \(hostileResult.filter { $0.key != "half_sent" })")
        for key in ["dotdot", "encoded_dotdot", "unknown"] {
            #expect(
                hostileResult[key] as? Int == 404 || hostileResult[key] as? String == "closed",
                "\(key): \(String(describing: hostileResult[key]))")
        }
        #expect(hostileResult["post"] as? Int == 405)
        for key in ["big_header", "non_http"] {
            let value = hostileResult[key]
            #expect(
                (value as? Int).map { (400...499).contains($0) } ?? (value as? String == "closed"), "\(key): \(String(describing: value))")
        }
        let slowRequests = hostileResult["half_sent"] as? [[String: Any]] ?? []
        #expect(slowRequests.count == 40)
        for entry in slowRequests {
            #expect(entry["outcome"] as? String == "cut" && (entry["seconds"] as? Double ?? 99) < 15, "\(entry)")
        }
    }

    @Test func aViewerJoiningMidGOPGetsAKeyframeAtOnceAndHLSAndTheTokenWork() throws {
        let dir = try Tools.temporaryDirectory("serve-join")
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = "s3cret-token"
        let server = try ServeTestServer(
            directory: dir, duration: 20,
            arguments: ["--token", token, "--srt-port", "0", "--keyint-duration", "4", "--keyint", "60", "--hls-time", "4"])
        let srtPort = try server.announcedPort("SRT callers: srt://")
        // Without the token, with a wrong one; every path.
        #expect(try server.get("/live.ts").status == 401)
        #expect(try server.get("/stats.json?token=nope").status == 401)
        #expect(try server.get("/nothing").status == 401)
        let page = try server.get("/?token=\(token)")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("/live.ts?token=\(token)"))
        // Join in the middle of a 4 s GOP: the keyframe comes from the cache at once.
        letTimePass(6, "into the middle of the second 4 s GOP")
        let out = dir.appendingPathComponent("join.ts").path
        let viewer = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-i",
                server.url("/live.ts?token=\(token)"), "-t", "3", "-c", "copy", "-y", out,
            ],
            stderrPath: dir.appendingPathComponent("join.log").path)
        var firstKeyframe: Double?
        _ = waitUntil(timeout: 10) {
            let viewers = (try? server.statistics(token: token))?["viewers"] as? [[String: Any]] ?? []
            firstKeyframe = viewers.first?["first_keyframe_seconds"] as? Double
            return firstKeyframe != nil
        }
        #expect(viewer.wait(timeout: 20))
        let coverage = try Self.videoCoverage(out, fps: 15)
        #expect(coverage.firstIsKey && coverage.frames >= 15, "\(coverage)")
        #expect((firstKeyframe ?? 99) < 0.5, "first keyframe after \(String(describing: firstKeyframe)) s")
        print("serve: joined mid-GOP, first keyframe handed over after \(firstKeyframe ?? -1) s")
        // SRT callers need the token as passphrase.
        let srtOut = dir.appendingPathComponent("srt.ts").path
        let good = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-i",
                "srt://127.0.0.1:\(srtPort)?mode=caller&passphrase=\(token)", "-t", "2", "-c", "copy", "-y", srtOut,
            ])
        let srtFrames = try Self.videoCoverage(srtOut, fps: 15).frames
        #expect(good.status == 0 && srtFrames >= 25, "\(srtFrames) frames; \(good.stderr)")
        let wrong = try Tools.run(
            "timeout",
            [
                "10", "ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i",
                "srt://127.0.0.1:\(srtPort)?mode=caller&passphrase=wrong-passphrase", "-t", "1",
                "-f", "null", "-",
            ])
        #expect(wrong.status != 0, "a caller with the wrong passphrase was served")
        // HLS: the playlist carries the token to its segments; ffprobe reads it.
        let playlist = try server.get("/live.m3u8?token=\(token)")
        #expect(playlist.status == 200 && String(decoding: playlist.body, as: UTF8.self).contains(".ts?token=\(token)"))
        let probe = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                server.url("/live.m3u8?token=\(token)"),
            ])
        #expect(probe.stdoutText.contains("h264") && probe.stdoutText.contains("aac"), "\(probe.stderr)")
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
    }

    @Test func listensOnLoopbackByDefault() throws {
        let dir = try Tools.temporaryDirectory("serve-loopback")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 6, bareListen: true)
        let sockets = try Tools.run("ss", ["-Hltn", "sport = :\(server.port)"]).stdoutText
        _ = server.finish(timeout: 30)
        // The local address column of every listening socket on the port.
        let locals = sockets.split(separator: "\n").compactMap {
            $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first
        }
        #expect(!locals.isEmpty && locals.allSatisfy { $0 == "127.0.0.1:\(server.port)" }, "\(sockets)")
        let log = server.process.stderr
        #expect(log.contains("serving http://127.0.0.1:\(server.port)/live.ts"), "\(log)")
        #expect(!log.contains("reachable from the network"))
    }

    /// A port another `onair serve` holds: the second one says so and exits 1, the first serves
    /// on (a failed start once aborted with a double free).
    @Test func aListenAddressInUseIsReportedAndExitsOne() throws {
        let dir = try Tools.temporaryDirectory("serve-in-use")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try ServeTestServer(directory: dir, duration: 8)
        let second = try Tools.run(
            Tools.onairExecutable,
            ["serve", "--listen", "127.0.0.1:\(first.port)", "--duration", "2", "--size", "160x120"])
        #expect(second.status == 1, "\(second.stderr)")
        #expect(
            second.stderr.contains("cannot listen on 127.0.0.1:\(first.port)") && second.stderr.contains("in use"),
            "\(second.stderr)")
        #expect(StreamTestPorts.accepts(first.port))
        #expect(first.finish(timeout: 30), "\(first.process.stderr)")
    }
}
#endif
