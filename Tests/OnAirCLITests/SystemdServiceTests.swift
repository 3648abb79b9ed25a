#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve` under systemd: the shipped units pass `systemd-analyze verify` (silent) and
/// `security --threshold=30`; the notification protocol seen on a datagram socket of the test's
/// own: READY=1 once the listener answers, WATCHDOG=1 while frames flow, none while the source
/// (ffmpeg writing a pipe, stopped with SIGSTOP) stalls — when `/healthz` says 503 — and again after.
@Suite(.serialized) struct SystemdServiceTests {
    static let analyze = Tools.executable(onPath: "systemd-analyze")
    static let units = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("dist/systemd")

    @Test(.enabled(if: analyze != nil, "systemd-analyze is not installed"), arguments: ["onair.service", "onair@.service"])
    func theShippedUnitVerifiesAndIsHardened(_ unit: String) throws {
        let dir = try Tools.temporaryDirectory("systemd-unit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOf: Self.units.appendingPathComponent(unit), encoding: .utf8)
        // ExecStart on the built binary (verify checks it exists); a template checked as an instance.
        let name = unit.replacingOccurrences(of: "@.", with: "@cam1.")
        let path = dir.appendingPathComponent(name).path
        try text.replacingOccurrences(of: "/usr/bin/onair", with: URL(fileURLWithPath: Tools.onairExecutable).standardizedFileURL.path)
            .write(
                toFile: path, atomically: true, encoding: .utf8)
        let verified = try Tools.run(Self.analyze!, ["verify", path])
        #expect(verified.status == 0 && verified.stdoutText.isEmpty && verified.stderr.isEmpty, "\(verified.stdoutText)\(verified.stderr)")
        let security = try Tools.run(Self.analyze!, ["security", "--offline=true", "--threshold=30", path])
        #expect(security.status == 0, "\(security.stdoutText)\(security.stderr)")
        let overall = security.stdoutText.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let level = overall.flatMap { line in line.split(separator: " ").compactMap { Double($0) }.last }
        #expect(level.map { $0 <= 3.0 } == true, "\(overall ?? "no overall level")")
        for required in [
            "Type=notify", "WatchdogSec=", "Restart=on-failure", "DynamicUser=yes", "SupplementaryGroups=video audio",
            "ProtectSystem=strict",
            "ProtectHome=yes", "PrivateTmp=yes", "NoNewPrivileges=yes", "RestrictAddressFamilies=", "StateDirectory=onair",
        ] {
            #expect(text.contains(required), "\(unit) lacks \(required)")
        }
        #expect(!text.contains("PrivateUsers=yes") && !text.contains("MemoryDenyWriteExecute=yes"))
        // Recording names and retention need the wall clock set: after time-sync.target (issue 43).
        let after = text.split(separator: "\n").first { $0.hasPrefix("After=") }.map { $0.split(separator: "=")[1].split(separator: " ") }
        #expect(after?.contains("time-sync.target") == true, "\(unit): \(after ?? [])")
    }

    @Test func readyWatchdogFromFramesAndSilenceWhileTheSourceStalls() throws {
        let dir = try Tools.temporaryDirectory("systemd-notify")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("source.ts").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let source = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-c:v",
                "mpeg2video", "-q:v", "5", "-f", "mpegts", "-y", fifo,
            ], stderrPath: dir.appendingPathComponent("source.log").path)
        let receiver = try DatagramReceiver(abstract: true)
        let server = try StreamTestProcess(
            "/usr/bin/env",
            [
                "NOTIFY_SOCKET=\(receiver.name)", "WATCHDOG_USEC=1000000", Tools.onairExecutable, "serve", "--video", "file:\(fifo)",
                "--listen", "127.0.0.1:0", "--duration", "40", "--size", "320x240", "--fps", "15", "--preset", "ultrafast",
            ], stderrPath: dir.appendingPathComponent("serve.log").path)
        defer {
            kill(source.process.processIdentifier, SIGCONT)
            source.kill()
            server.kill()
        }
        let ready = receiver.next(timeout: 20)
        #expect(ready?.hasPrefix("READY=1\n") == true, "\(ready ?? "nothing") \(server.stderr)")
        // The message names the port bound ("STATUS=serving on port N"): the server listens on port 0.
        let port = try #require(ready.flatMap { StreamTestProcess.port(in: $0, after: "serving on port ") }, "\(ready ?? "nothing")")
        #expect(StreamTestPorts.accepts(port), "READY=1 before the listener answered")
        func healthz() -> Int {
            (try? Tools.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-m", "5", "http://127.0.0.1:\(port)/healthz"]))
                .flatMap { Int($0.stdoutText) } ?? 0
        }
        var pings = 0
        var status: String?
        while pings < 4, let message = receiver.next(timeout: 10) {
            if message == "WATCHDOG=1" { pings += 1 }
            if message.hasPrefix("STATUS=serving 0 viewers") { status = message }
        }
        #expect(pings == 4, "\(server.stderr)")
        #expect(status?.contains(" fps") == true)
        #expect(healthz() == 200)
        // The source stalls: /healthz turns 503 after 2 s, and from then on no watchdog ping comes.
        kill(source.process.processIdentifier, SIGSTOP)
        #expect(waitUntil(timeout: 15) { healthz() == 503 })
        _ = receiver.messages()
        let during = receiver.next(timeout: 1.5)
        #expect(during == nil, "\(during ?? "") while the source stalled")
        // It comes back: pings again, healthy again.
        kill(source.process.processIdentifier, SIGCONT)
        var resumed = false
        while !resumed, let message = receiver.next(timeout: 10) { resumed = message == "WATCHDOG=1" }
        #expect(resumed)
        #expect(waitUntil(timeout: 10) { healthz() == 200 })
        // The source ends: the server stops and says so.
        source.kill()
        var stopping = false
        while !stopping, let message = receiver.next(timeout: 20) { stopping = message == "STOPPING=1" }
        #expect(stopping, "\(server.stderr)")
    }
}
#endif
