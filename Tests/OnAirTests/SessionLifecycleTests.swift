import Foundation
import OnAir
import OnAirCore
import OnAirTestSupport
import Testing

/// The session's one lifecycle: `build()` off the cooperative pool, `run()` or `start()`/`stop()`,
/// and events a late reader still gets.
@Suite struct SessionLifecycleTests {
    private static func smallVideo(_ settings: inout SessionSettings) {
        settings.video = .synthetic
        settings.audio = .none
        settings.videoEncoder = VideoEncoderSettings(width: 160, height: 120, expectedFrameRate: 30, averageBitRate: 300_000)
        settings.videoEncoder.preset = "ultrafast"
    }

    /// Marks that happen once, seen by the builder's handler, awaited without polling.
    private final class Marks: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: Set<String> = []
        private var waiting: [(Set<String>, CheckedContinuation<Void, Never>)] = []

        func mark(_ name: String) {
            lock.lock()
            seen.insert(name)
            let ready = waiting.filter { $0.0.isSubset(of: seen) }
            waiting.removeAll { $0.0.isSubset(of: seen) }
            lock.unlock()
            for (_, continuation) in ready { continuation.resume() }
        }

        func wait(for names: Set<String>) async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if names.isSubset(of: seen) {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiting.append((names, continuation))
                lock.unlock()
            }
        }
    }

    /// A reader that reads nothing while an output fails and a stream reconnects gets both, in
    /// order, once it reads; the statistics of that time come as one, the newest.
    @Test(.timeLimit(.minutes(1)))
    func aReaderThatWasAwayStillGetsTheFailureAndTheReconnect() async throws {
        let dir = try Tools.temporaryDirectory("session-away")
        defer { try? FileManager.default.removeItem(at: dir) }
        // An output that fails at its first write: a file that is /dev/full.
        let full = dir.appendingPathComponent("full.h264").path
        try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
        // A receiver that takes 50 kB, hangs up, then takes the reconnected stream until killed.
        // It binds port 0 and writes the port it got to `portFile` once it listens.
        let portFile = dir.appendingPathComponent("receiver.port").path
        let receiver = Tools.process(
            "python3",
            [
                "-c",
                """
                import os, socket, sys
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
                open(sys.argv[1] + ".part", "w").write(str(s.getsockname()[1]))
                os.rename(sys.argv[1] + ".part", sys.argv[1])
                c, _ = s.accept(); n = 0
                while n < 50000:
                    d = c.recv(65536)
                    if not d: break
                    n += len(d)
                c.close()
                c, _ = s.accept()
                while c.recv(65536): pass
                """,
                portFile,
            ])
        try receiver.runUnblocked()
        defer { kill(receiver) }
        var listening: Int?
        _ = waitUntil(timeout: 10) {
            listening = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            return listening != nil
        }
        let port = try #require(listening, "the receiver never listened")

        var settings = SessionSettings()
        Self.smallVideo(&settings)
        settings.outputs = ["tcp://127.0.0.1:\(port)", full]
        let marks = Marks()
        let session = try await SessionBuilder(settings)
            .onEvent { event in
                switch event {
                case .outputFailed: marks.mark("failed")
                case .connection(_, .connected(reconnect: true)): marks.mark("reconnected")
                default: break
                }
            }
            .build()
        let events = session.events()  // subscribed, not read until both happened
        let run = Task { try await session.run() }
        await marks.wait(for: ["failed", "reconnected"])

        var order: [String] = []
        var statistics = 0
        for await event in events {
            switch event {
            case .outputFailed(let failure): order.append("failed \((failure.destination as NSString).lastPathComponent)")
            case .connection(_, .connected(let reconnect)): order.append(reconnect ? "reconnected" : "connected")
            case .connection(_, .lost): order.append("lost")
            case .statistics: statistics += 1
            default: break
            }
            if order.contains("reconnected") { break }
        }
        #expect(order.contains("failed full.h264"), "\(order)")
        // A hang-up may be reported as `lost` before the new connection, or noticed by the next one.
        #expect(order.filter { $0 != "failed full.h264" && $0 != "lost" } == ["connected", "reconnected"], "\(order)")
        #expect(statistics <= 1, "statistics coalesce for a reader that was away: \(statistics)")
        #expect(events.dropped == 0)
        run.cancel()
        let outcome = try await run.value
        #expect(outcome.reason == .cancelled)
        #expect(outcome.failedOutputs.map(\.destination) == [full])
    }

    /// The process's resident memory, bytes.
    private static func resident() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A subscriber that never reads while a session runs for 60 s (statistics every second, a
    /// 720p encode to a file) leaves the whole process's memory flat: its queue holds the newest
    /// statistics, not sixty. Long tier (a minute): ONAIR_LONG_TESTS=1.
    @Test(
        .enabled(if: Tools.longTests, "long tier (soak/load): ONAIR_LONG_TESTS=1 or scripts/test.sh --long"),
        .timeLimit(.minutes(2)))
    func aSubscriberThatNeverReadsLeavesMemoryFlatForAMinute() async throws {
        let dir = try Tools.temporaryDirectory("session-unread")
        defer { try? FileManager.default.removeItem(at: dir) }
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.videoEncoder = VideoEncoderSettings(width: 1280, height: 720, expectedFrameRate: 30, averageBitRate: 2_000_000)
        settings.videoEncoder.preset = "ultrafast"
        settings.duration = .seconds(62)
        settings.outputs = [dir.appendingPathComponent("out.ts").path]
        let session = try await SessionBuilder(settings).build()
        let unread = session.events()  // never read until the end
        let read = session.events()
        let run = Task { try await session.run() }
        var samples: [(second: Int, bytes: Int)] = []
        var statistics = 0
        for await event in read {
            guard case .statistics = event else { continue }
            statistics += 1
            if statistics == 10 || statistics == 60 { samples.append((statistics, Self.resident())) }
        }
        let outcome = try await run.value
        var kept = 0
        for await event in unread {
            if case .statistics = event { kept += 1 }
        }
        try #require(samples.count == 2, "statistics seen: \(statistics)")
        let growth = samples[1].bytes - samples[0].bytes
        print(
            "unread subscriber: resident \(samples[0].bytes / 1_000_000) MB at 10 s, \(samples[1].bytes / 1_000_000) MB at 60 s, \(kept) statistics kept"
        )
        #expect(growth < 8_000_000, "resident memory grew \(growth) bytes from 10 s to 60 s")
        #expect(kept <= 1 && unread.dropped == 0, "the unread subscriber kept \(kept) statistics, dropped \(unread.dropped)")
        #expect(outcome.reason == .durationReached)
    }

    /// `stop` called from the builder's handler (on the session's own thread) stops it without a
    /// deadlock; a later `stop` and `run` give the same outcome; `.stopped` is the last event.
    @Test(.timeLimit(.minutes(1)))
    func stopFromTheHandlerThenAgainReturnsOneOutcome() async throws {
        let dir = try Tools.temporaryDirectory("session-stop-handler")
        defer { try? FileManager.default.removeItem(at: dir) }
        var settings = SessionSettings()
        Self.smallVideo(&settings)
        let output = dir.appendingPathComponent("out.h264").path
        settings.outputs = [output]
        let box = SessionBox()
        let session = try await SessionBuilder(settings)
            .onEvent { event in
                if case .statistics = event { _ = try? box.session?.stop(reason: .cancelled) }
            }
            .build()
        box.session = session
        let events = session.events()
        try session.start()
        var last: SessionEvent?
        for await event in events { last = event }
        guard case .stopped(.cancelled) = last else {
            Issue.record("the last event was \(String(describing: last))")
            return
        }
        box.session = nil  // the handler holds the box
        let again = try session.stop(reason: .durationReached)
        let ran = try await session.run()
        #expect(again.reason == .cancelled && ran.reason == .cancelled)
        #expect(again.statistics.framesOut == ran.statistics.framesOut && ran.statistics.framesOut >= 20)
        let probe = try Tools.run(
            "ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", output])
        let probed = String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(probed) == ran.statistics.framesOut, "ffprobe counted \(probed)")
    }

    private final class SessionBox: @unchecked Sendable {
        var session: Session?
    }

    /// `build()` from 32 tasks at once, each blocked in opening its output (a FIFO nobody reads
    /// yet), leaves the cooperative pool free: a task started after them runs while they are all
    /// still blocked. The FIFOs' reader opens them only once that task has run (or, should the
    /// pool be stalled, after 10 s, and the test fails), so no timing decides the result.
    @Test(.timeLimit(.minutes(1)))
    func buildingFrom32TasksDoesNotStallTheCooperativePool() async throws {
        let dir = try Tools.temporaryDirectory("session-build-pool")
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = (0..<32).map { dir.appendingPathComponent("out\($0).h264").path }
        for path in paths { #expect(mkfifo(path, 0o600) == 0) }
        let probeRan = DispatchSemaphore(value: 0)
        let ranWhileBlocked = Locked(false)
        let readers = Thread {
            ranWhileBlocked.withLock { $0 = probeRan.wait(timeout: .now() + 10) == .success }
            for path in paths {
                let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                if descriptor >= 0 { Readers.keep(descriptor) }
            }
        }
        readers.start()
        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for path in paths {
                group.addTask {
                    var settings = SessionSettings()
                    Self.smallVideo(&settings)
                    settings.outputs = [path]
                    return try await SessionBuilder(settings).build()
                }
            }
            // Queued behind the 32 builds: it runs only if they left the pool's threads free.
            Task { probeRan.signal() }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sessions.count == 32)
        #expect(ranWhileBlocked.current, "a task queued behind 32 blocked builds did not run until their FIFOs opened")
        // Stopped before they ran: each returns at once and leaves no file.
        for session in sessions { #expect(try session.stop().statistics.framesOut == 0) }
        #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        Readers.closeAll()
    }

    private enum Readers {
        nonisolated(unsafe) private static var descriptors: [Int32] = []
        private static let lock = NSLock()
        static func keep(_ descriptor: Int32) { lock.withLock { descriptors.append(descriptor) } }
        static func closeAll() {
            lock.withLock {
                for descriptor in descriptors { close(descriptor) }
                descriptors = []
            }
        }
    }
}
