#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --rtsp-port` with real RTSP players (ffmpeg over UDP and TCP, GStreamer's
/// rtspsrc) and raw hostile clients (Tests/Tools/rtsp_clients.py), all on loopback.
@Suite(.serialized) struct ServeRTSPTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/rtsp_clients.py").path

    /// A serve with an RTSP face on port 0 (the port read back from its "RTSP:" line), waited for.
    /// `duration` only bounds a test that fails: each test stops the server once it has its media.
    static func serve(_ dir: URL, duration: Int, _ arguments: [String]) throws -> (server: ServeTestServer, rtsp: Int) {
        let server = try ServeTestServer(directory: dir, duration: duration, arguments: ["--rtsp-port", "0"] + arguments)
        let rtsp = try server.announcedPort("RTSP: rtsp://")
        guard waitUntil(timeout: 10, { StreamTestPorts.accepts(rtsp) }) else {
            throw StreamTestError("the RTSP face did not listen: \(server.process.stderr)")
        }
        return (server, rtsp)
    }

    /// Frames per second of media in a recording (its video packets over their time span).
    static func rate(_ coverage: (frames: Int, expected: Int, firstIsKey: Bool, largestGap: Double), fps: Double) -> Double {
        Double(coverage.frames) / max(1e-3, Double(max(1, coverage.expected - 1)) / fps)
    }

    /// ffmpeg copying `seconds` of an RTSP stream into `out` over `transport` (`-copyinkf`: from
    /// ffmpeg 7.1 on, its RTSP demuxer marks no AAC packet as a keyframe, and a copy without it
    /// drops all sound), its warnings (packets missed, timestamps) in `log`.
    static func ffmpeg(_ url: String, transport: String, seconds: Int, out: String, log: URL) throws -> StreamTestProcess {
        try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "warning", "-rtsp_transport", transport, "-i", url,
                "-t", "\(seconds)", "-c", "copy", "-copyinkf", "-y", out,
            ], stderrPath: log.path)
    }

    /// The errors gst-launch printed (`output` its standard output, `errors` its standard error),
    /// but those of its own shutdown: after the interrupt that ends its run and the EOS it waits
    /// for, rtspsrc sends PAUSE and TEARDOWN, and a connection the server has closed by then fails
    /// them with "Could not send message" (seen once in a fresh-clone CI run, after 10 s of clean
    /// decoding). An error while playing ends the run before the interrupt, so it still counts, as
    /// does any other kind of error.
    static func decodeErrors(output: String, errors: String) -> [String] {
        let endedByInterrupt = output.contains("handling interrupt") && output.contains("Got EOS from element")
        let reported = (output + "\n" + errors).components(separatedBy: "ERROR").dropFirst()
        return reported.filter { !(endedByInterrupt && $0.contains("Could not send message")) }.map { String($0.prefix(200)) }
    }

    static func request(_ port: Int, _ kind: String) throws -> Int {
        Int(try Tools.run("python3", [clients, "request", "\(port)", kind]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
            ?? -1
    }

    @Test func ffmpegOverUDPAndTCPAndGStreamerPlayInSyncWhileTheRecordingKeepsEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-players")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        let (server, port) = try Self.serve(
            dir, duration: 34,
            [
                "-o", recording, "--keyint-duration", "1",
                "--stats-json", dir.appendingPathComponent("stats.jsonl").path,
            ])
        let url = "rtsp://127.0.0.1:\(port)/live"
        let udp = dir.appendingPathComponent("udp.ts").path, tcp = dir.appendingPathComponent("tcp.ts").path
        let gst = dir.appendingPathComponent("gst.ts").path
        let viewers = [
            try Self.ffmpeg(url, transport: "udp", seconds: 10, out: udp, log: dir.appendingPathComponent("udp.log")),
            try Self.ffmpeg(url, transport: "tcp", seconds: 10, out: tcp, log: dir.appendingPathComponent("tcp.log")),
        ]
        // GStreamer: one rtspsrc recording the depayloaded H.264, one decoding everything.
        let recorder = try StreamTestProcess(
            "timeout",
            [
                "-s", "INT", "11", "gst-launch-1.0", "-q", "-e", "rtspsrc", "location=\(url)", "latency=200",
                "!", "rtph264depay", "!", "h264parse", "!", "mpegtsmux", "!", "filesink", "location=\(gst)",
            ],
            stderrPath: dir.appendingPathComponent("gst.log").path)
        let decoder = try StreamTestProcess(
            "timeout",
            [
                "-s", "INT", "10", "gst-launch-1.0", "-e", "rtspsrc", "location=\(url)", "protocols=tcp",
                "!", "decodebin", "!", "fakesink",
            ],
            stderrPath: dir.appendingPathComponent("gst-decode.log").path,
            stdoutPath: dir.appendingPathComponent("gst-decode.out").path)
        // (No VLC: Debian's VLC 3 is built without live555, so it has no RTSP client; `cvlc
        // rtsp://…` writes nothing and `--rtsp-tcp` is an unknown option.)
        // The SDP (RFC 6184 packetization mode 1 with the parameter sets, RFC 3640 AAC-hbr); then
        // hostile requests while they play: refused, and the players go on.
        let sdp = try Tools.run("python3", [Self.clients, "sdp", "\(port)"]).stdoutText
        #expect(
            sdp.contains("packetization-mode=1") && sdp.contains("sprop-parameter-sets=") && sdp.contains("MPEG4-GENERIC/")
                && sdp.contains("mode=AAC-hbr"), "\(sdp)")
        #expect(try Self.request(port, "garbage-text") == 400)
        #expect(try Self.request(port, "bad-cseq") == 400)
        #expect(try Self.request(port, "no-cseq") == 400)
        // 40 kB (over the 16 KiB limits, under the 80 KiB past which a request still arriving is
        // cut unanswered): as a body (gst-rtsp-server's own limit), as one header line (GStreamer
        // would cut it to 4 KiB and serve the rest), as 400 header lines, and in OPTIONS; a 3 kB
        // line is fine.
        for kind in ["huge", "huge-header", "many-headers", "huge-options"] {
            #expect(try Self.request(port, kind) == 413, "\(kind)")
        }
        #expect(try Self.request(port, "long-header") == 200)
        #expect(![0, 200].contains(try Self.request(port, "bad-transport")))
        #expect(try Self.request(port, "other-path") == 404)
        #expect(try Self.request(port, "garbage") != 200)
        let statistics = (try? server.statistics()) ?? [:]
        for viewer in viewers { #expect(viewer.wait(timeout: 40), "ffmpeg did not finish: \(viewer.stderr)") }
        #expect(recorder.wait(timeout: 30) && decoder.wait(timeout: 30), "gst-launch did not finish")
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")

        let decodeLog = (try? String(contentsOfFile: dir.appendingPathComponent("gst-decode.out").path, encoding: .utf8)) ?? ""
        #expect(
            Self.decodeErrors(output: decodeLog, errors: decoder.stderr).isEmpty,
            "gst-launch decodebin: \(decodeLog) \(decoder.stderr)")
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        let lines = try String(contentsOfFile: dir.appendingPathComponent("stats.jsonl").path, encoding: .utf8).split(separator: "\n")
        let final = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(
            recorded.frames >= 100 && recorded.frames == final["frames_out"] as? Int,
            "recording: \(recorded), encoded \(final["frames_out"] ?? "-")")
        let encodedRate = Self.rate(recorded, fps: 15)
        // What the encoder made while the player was connected: ≥ 95 % of it arrived, from a
        // keyframe, decodable (GStreamer's own recording, whose jitter buffer re-times packets
        // that arrive bunched on a loaded machine, may repeat a DTS, which the null muxer names;
        // decoding errors are what counts), and in ffmpeg's copies sound and picture within a
        // frame of each other (RTCP-aligned timestamps).
        func check(_ out: String) throws {
            let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
            #expect(
                coverage.frames >= 30 && Self.rate(coverage, fps: 15) >= 0.95 * encodedRate, "\(out): \(coverage), recording \(recorded)")
            #expect(coverage.firstIsKey, "\(out) does not start on a keyframe")
            let errors = try ServeCommandTests.decodeErrors(out).split(separator: "\n")
                .filter {
                    out != gst || !($0.contains("non monotonically increasing dts to muxer") || $0.contains("Last message repeated"))
                }
            #expect(errors.isEmpty, "\(out): \(errors)")
            guard out != gst else { return }
            let report = try RecordCommandTests.syncReport(out)
            let offset = report["max_av_offset_ms"] as? Double ?? .infinity
            #expect((report["flashes"] as? Int ?? 0) >= 2 && offset <= 1000.0 / 15, "\(out): \(report)")
        }
        try check(gst)
        // ffmpeg's two copies, checked the same. Issue 35's misses here (over UDP about 97 of 150
        // frames with a 3.6 s gap and no sound; over TCP nothing, the client cut as too slow at its
        // join) were a client's primed packets stamped with the clock's own time while its
        // pipeline went to PLAYING (see `aRunningTimeOnlyOnceThePipelineIsPlayingWithABaseTime`).
        try check(udp)
        try check(tcp)
        // What to read when one misses: ffmpeg's warnings (RTP packets missed, timestamps) and
        // the server's lines about viewers cut as too slow (how far behind, and why).
        for name in ["udp.log", "tcp.log"] {
            let log = (try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? ""
            print("ffmpeg \(name): \(log.split(separator: "\n").suffix(12).joined(separator: " | "))")
        }
        print("serve: \(server.process.stderr.split(separator: "\n").filter { $0.contains(") cut: ") }.joined(separator: " | "))")
        // /stats.json listed the RTSP viewers with their transport.
        let entries = (statistics["viewers"] as? [[String: Any]] ?? []).filter { $0["format"] as? String == "es" }
        let transports = Set(entries.compactMap { $0["transport"] as? String })
        #expect(
            entries.count >= 2 && transports.contains("rtsp/udp") && transports.contains("rtsp/tcp")
                && entries.allSatisfy { ($0["packets_sent"] as? Int ?? 0) > 0 }, "\(entries)")
    }

    /// Eight ffmpeg players over UDP joining within 100 ms of each other, each sent the keyframe
    /// cache (2 s keyframes at 1280x720 and 4 Mb/s: up to a megabyte) at its join: every copy
    /// decodes with no error and misses no frame the recording has (frame codes). Before the
    /// join was paced the cache left at once, past what ffmpeg's 384 KiB receive buffer holds
    /// while it is busy probing: the kernel dropped the rest (RcvbufErrors), and copies had
    /// decode errors or held a single frame.
    @Test func eightPlayersJoiningOverUDPAtOnceEachGetEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-udp-join")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        let (server, port) = try Self.serve(
            dir, duration: 20,
            ["-o", recording, "--size", "1280x720", "--fps", "15", "--bitrate", "4M", "--keyint-duration", "2"])
        // Let the cache fill to most of a GOP before everyone joins.
        #expect(
            waitUntil(timeout: 15) { (((try? server.statistics())?["encoder"] as? [String: Any])?["frames_out"] as? Int ?? 0) >= 45 })
        let url = "rtsp://127.0.0.1:\(port)/live"
        let copies = (0..<8).map { dir.appendingPathComponent("udp\($0).ts").path }
        var players: [StreamTestProcess] = []
        for (index, out) in copies.enumerated() {
            players.append(
                try Self.ffmpeg(url, transport: "udp", seconds: 6, out: out, log: dir.appendingPathComponent("udp\(index).log")))
        }
        for player in players { #expect(player.wait(timeout: 40), "ffmpeg did not finish: \(player.stderr)") }
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
        let recorded = try RecordCommandTests.syncReport(recording)
        let recordedDrops = recorded["dropped_frames"] as? Int ?? 0
        for (index, out) in copies.enumerated() {
            let errors = try ServeCommandTests.decodeErrors(out)
            #expect(errors.isEmpty, "copy \(index): \(errors)")
            let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
            let report = try RecordCommandTests.syncReport(out)
            let frames = report["frames"] as? Int ?? 0, dropped = report["dropped_frames"] as? Int ?? -1
            // 6 s of media from a keyframe up to 2 s old: at least 80 frames; of those, what the
            // recording kept is all there (1 % allowed).
            let log = (try? String(contentsOf: dir.appendingPathComponent("udp\(index).log"), encoding: .utf8)) ?? ""
            // A copy that held a single frame (about 1 run in 5 before the fix) had its primed
            // parameter sets and audio frame stamped hours ahead of the packets after them.
            #expect(
                coverage.firstIsKey && frames >= 80,
                "copy \(index): \(coverage), \(report); ffmpeg: \(log.split(separator: "\n").suffix(15).joined(separator: " | "))")
            #expect(
                dropped >= 0 && Double(dropped) <= Double(recordedDrops) + 0.01 * Double(frames),
                "copy \(index): \(dropped) frames missing of \(frames); the recording misses \(recordedDrops)")
        }
    }

    @Test func withoutCredentialsOrBeyondTheViewerLimitAClientIsRefusedWhileAViewerKeepsPlaying() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-refusals")
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = "s3cret-token"
        let (server, port) = try Self.serve(dir, duration: 22, ["--token", token, "--max-viewers", "2"])
        let open = "rtsp://127.0.0.1:\(port)/live"
        let authorized = "rtsp://onair:\(token)@127.0.0.1:\(port)/live"
        // Without credentials: 401 (the raw DESCRIBE and ffmpeg).
        #expect(try Self.request(port, "describe") == 401)
        let refused = try Tools.run(
            "ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-rtsp_transport", "tcp", "-i", open, "-t", "1", "-f", "null", "-"])
        #expect(refused.status != 0 && refused.stderr.contains("401"), "\(refused.stderr)")
        // With them: plays. An HTTP viewer fills the second slot, so a third viewer is refused with 503.
        let out = dir.appendingPathComponent("tcp.ts").path
        let viewer = try Self.ffmpeg(authorized, transport: "tcp", seconds: 12, out: out, log: dir.appendingPathComponent("tcp.log"))
        let http = try StreamTestProcess(
            "curl", ["-s", "-m", "10", "-o", "/dev/null", server.url("/live.ts?token=\(token)")],
            stderrPath: dir.appendingPathComponent("curl.log").path)
        func viewers() -> Int { (((try? server.statistics(token: token))?["totals"] as? [String: Any])?["viewers"] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 15) { viewers() == 2 }, "\(viewers()) viewers; \(viewer.stderr); \(server.process.stderr.suffix(600))")
        let full = try Tools.run(
            "ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-rtsp_transport", "udp", "-i", authorized, "-t", "1", "-f", "null", "-"])
        #expect(full.status != 0 && full.stderr.contains("503"), "beyond --max-viewers: \(full.stderr)")
        #expect(viewer.wait(timeout: 30), "the viewer did not finish: \(viewer.stderr)")
        _ = http.wait(timeout: 15)
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
        let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
        #expect(coverage.frames >= 90 && coverage.largestGap <= 0.5, "\(coverage); \(viewer.stderr)")
        let errors = try ServeCommandTests.decodeErrors(out)
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func aClientTakesAViewerSlotAtPlayNotAtDescribeAndGivesItBackWhenItLeaves() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-slots")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, port) = try Self.serve(dir, duration: 40, ["--max-viewers", "1"])
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }
        func viewers() -> Int { totals()["viewers"] as? Int ?? -1 }
        func read(_ name: String, timeout: Double = 15) -> [String: Any] {
            let path = dir.appendingPathComponent(name).path
            var object: [String: Any]?
            // Until the file holds a whole JSON object (a few bytes, written at the client's end).
            _ = waitUntil(timeout: timeout) {
                object = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) as? [String: Any]
                return object != nil
            }
            return object ?? [:]
        }
        // A client that has DESCRIBEd and SET UP (interleaved TCP) but not PLAYed holds no slot.
        let steps = dir.appendingPathComponent("steps")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        let pending = try StreamTestProcess(
            "python3", [Self.clients, "pending", "\(port)", steps.path], stderrPath: dir.appendingPathComponent("pending.log").path)
        #expect(read("steps/setup.json")["describe"] as? Int == 200, "\(pending.stderr)")
        #expect(viewers() == 0, "\(totals())")
        // So ffmpeg takes the one slot; while it plays, a DESCRIBE and the held client's PLAY get 503.
        let out = dir.appendingPathComponent("tcp.ts").path
        let viewer = try Self.ffmpeg(
            "rtsp://127.0.0.1:\(port)/live", transport: "tcp", seconds: 6, out: out, log: dir.appendingPathComponent("tcp.log"))
        #expect(waitUntil(timeout: 15) { viewers() == 1 }, "\(totals()); \(viewer.stderr)")
        #expect(try Self.request(port, "describe") == 503)
        try Data().write(to: steps.appendingPathComponent("play1"))
        #expect(read("steps/play1.json")["status"] as? Int == 503, "\(pending.stderr)")
        // ffmpeg's TEARDOWN gives the slot back: the held client's next PLAY plays.
        #expect(viewer.wait(timeout: 30), "ffmpeg did not finish: \(viewer.stderr)")
        #expect(waitUntil(timeout: 15) { viewers() == 0 }, "the slot was not given back: \(totals())")
        try Data().write(to: steps.appendingPathComponent("play2"))
        let played = read("steps/play2.json")
        #expect(played["status"] as? Int == 200 && (played["bytes"] as? Int ?? 0) > 10_000, "\(played); \(pending.stderr)")
        #expect(viewers() == 1, "\(totals())")
        try Data().write(to: steps.appendingPathComponent("done"))
        #expect(pending.wait(timeout: 15))
        // Its connection closed: the slot is free again.
        #expect(waitUntil(timeout: 15) { viewers() == 0 }, "\(totals())")
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
        let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
        #expect(coverage.frames >= 45 && coverage.firstIsKey, "\(coverage)")
        let errors = try ServeCommandTests.decodeErrors(out)
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A client over TCP gets its first packets at once, as over UDP: gst-rtsp-server's PLAY turns
    /// rate control (the TCP sink's clock sync) back on, which held every packet until its running
    /// time, so the stamps' lead (half a second plus the keyframe cache's age) stood in the
    /// client's pipeline as latency and as a backlog growing with the keyframe interval. Measured
    /// by a raw client (PLAY's answer to the first video packet): 0.001–0.003 s with the sink kept
    /// unsynced, 0.495 s before; the cache's media then ran ahead of the clock by its age (0.86–
    /// 0.9 s), by 0.001 s before.
    @Test func aTCPClientGetsTheKeyframeCacheAtOnceNotPacedByTheClock() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-tcp-burst")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, port) = try Self.serve(dir, duration: 10, ["--keyint-duration", "4"])
        func framesOut() -> Int { ((try? server.statistics())?["encoder"] as? [String: Any])?["frames_out"] as? Int ?? 0 }
        #expect(waitUntil(timeout: 15) { framesOut() >= 30 })
        let output = try Tools.run("python3", [Self.clients, "burst", "\(port)", "2"]).stdoutText
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        print("TCP join: \(report)")
        #expect(report["play"] as? Int == 200 && (report["packets"] as? Int ?? 0) >= 30, "\(report)")
        #expect((report["first_after_play"] as? Double ?? .infinity) < 0.25, "\(report)")
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
    }

    @Test func aStalledTCPClientIsSkippedAndCutWhileUDPClientsAndTheRecordingKeepEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsp-stall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        // 2 Mb/s and a 256 kB viewer queue: the stalled client's buffers fill within seconds.
        let (server, port) = try Self.serve(
            dir, duration: 30,
            [
                "-o", recording, "--bitrate", "2000k", "--viewer-timeout", "3",
                "--viewer-queue", "262144", "--keyint-duration", "1",
                "--stats-json", dir.appendingPathComponent("stats.jsonl").path,
            ])
        let url = "rtsp://127.0.0.1:\(port)/live"
        let stalled = try StreamTestProcess(
            "python3", [Self.clients, "stall", "\(port)", "20"],
            stderrPath: dir.appendingPathComponent("stall.log").path,
            stdoutPath: dir.appendingPathComponent("stall.json").path)
        let outs = (0..<3).map { dir.appendingPathComponent("udp\($0).ts").path }
        let viewers = try outs.enumerated().map { index, out in
            try Self.ffmpeg(url, transport: "udp", seconds: 20, out: out, log: dir.appendingPathComponent("udp\(index).log"))
        }
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }
        #expect(waitUntil(timeout: 25) { (totals()["cut_too_slow"] as? Int ?? 0) >= 1 }, "never cut: \(totals())")
        for viewer in viewers { #expect(viewer.wait(timeout: 40), "ffmpeg did not finish: \(viewer.stderr)") }
        #expect(stalled.wait(timeout: 40))
        let after = totals()
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
        // Skipped before it was cut (its queue filled while its pipeline was backed up). Once seen
        // cut with no skip, before a client's primed packets were stamped hours ahead: its TCP
        // sink then waited on the first of them, so it was sent nothing and its cache aged out.
        #expect((after["skips_of_viewers_gone"] as? Int ?? 0) >= 1, "\(after)")
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        let lines = try String(contentsOfFile: dir.appendingPathComponent("stats.jsonl").path, encoding: .utf8).split(separator: "\n")
        let final = try #require(lines.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(recorded.frames == final["frames_out"] as? Int, "recording: \(recorded), encoded \(final["frames_out"] ?? "-")")
        for out in outs {
            let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
            #expect(coverage.frames >= 100, "\(out): \(coverage), recording \(recorded)")
            #expect(
                Self.rate(coverage, fps: 15) >= 0.95 * Self.rate(recorded, fps: 15), "\(out): \(coverage), recording \(recorded)")
            let errors = try ServeCommandTests.decodeErrors(out)
            #expect(errors.isEmpty, "\(out): \(errors)")
        }
    }
}
#endif
