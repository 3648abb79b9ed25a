#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirLive
@testable import OnAirServing

/// `/healthz`'s judge with an injected clock, and `/metrics`' text: the format's escaping, the
/// families from a statistics document, bounded labels, and `promtool check metrics` on it.
@Suite struct ServeHealthMetricsTests {
    /// A clock the test moves.
    final class ManualClock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = 100.0
        var now: Double {
            lock.lock()
            defer { lock.unlock() }
            return seconds
        }
        func advance(_ by: Double) {
            lock.lock()
            seconds += by
            lock.unlock()
        }
    }

    /// A wall clock the kernel says is not synchronized (injected) is a warning: degraded, still
    /// healthy; `/metrics` counts the clock's steps and says whether it is synchronized (issue 43).
    @Test func anUnsynchronizedWallClockIsDegradedAndItsStepsAreCounted() {
        let clock = ManualClock()
        let health = ServeHealth(streams: [.video]) { clock.now }
        health.packetWritten(.video)
        let synchronized = Locked(false)
        let wall = Locked(Date(timeIntervalSince1970: 1_796_000_000))
        let anchored = AnchoredClock(
            wall: { wall.current }, monotonic: { 0 }, synchronized: { synchronized.current })
        health.watch(clock: anchored)
        let verdict = health.verdict()
        #expect(verdict.status == "degraded" && verdict.isHealthy, "\(verdict)")
        #expect(verdict.warnings.first?.contains("not synchronized") == true)
        wall.withLock { $0 = $0.addingTimeInterval(-3600) }
        _ = anchored.now()
        let text = ServeMetrics.text(document: Self.document(), health: health, process: .current(), maxViewers: 8)
        #expect(text.contains("onair_clock_steps_total 1") && text.contains("onair_clock_synchronized 0"), "\(text)")
        synchronized.withLock { $0 = true }
        #expect(health.verdict() == ServeHealth.Verdict(status: "ok", reasons: []))
    }

    @Test func aStreamWithoutPacketsForMoreThanTwoSecondsOrAFailedOutputIsUnhealthy() {
        let clock = ManualClock()
        let health = ServeHealth(streams: [.video, .audio], stallLimit: 2) { clock.now }
        #expect(health.verdict().isHealthy)  // starting: not stalled yet
        clock.advance(2.1)
        #expect(
            health.verdict().reasons == [
                "no audio frame encoded yet for 2.1 s (capture or encoder stalled)",
                "no video frame encoded yet for 2.1 s (capture or encoder stalled)",
            ])
        let seen = Counter()
        health.onPacket { type in if type == .video { seen.add() } }
        health.packetWritten(.video)
        health.packetWritten(.audio)
        #expect(health.verdict() == ServeHealth.Verdict(status: "ok", reasons: []))
        #expect(seen.value == 1)
        clock.advance(1.9)
        health.packetWritten(.audio)
        #expect(health.verdict().isHealthy)
        clock.advance(0.2)  // video: 2.1 s since its last packet, audio 0.2 s
        #expect(health.verdict().reasons == ["no video frame encoded for 2.1 s (capture or encoder stalled)"])
        #expect(health.verdict().status == "unhealthy")
        health.packetWritten(.video)
        #expect(health.verdict().isHealthy)
        health.outputFailed("/tmp/x.ts", reason: "No space left on device")
        #expect(health.verdict().reasons == ["output /tmp/x.ts failed: No space left on device"])
        #expect(health.outputFailures == 1)
        #expect(health.packetCount(.video) == 2)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
        func add() {
            lock.lock()
            count += 1
            lock.unlock()
        }
    }

    @Test func theExpositionEscapesAndFormatsAsTheTextFormatSays() {
        var out = PrometheusExposition()
        out.add("a_total", .counter, "help with \\ and\nnewline", [([("face", "q\"u\\o\nte")], 3), ([("face", "b")], 0.25)])
        out.add("a_total", .counter, "again", 5)  // a family only once
        out.add("b", .gauge, "h", .nan)
        out.add("c", .gauge, "h", [])  // no samples: no family
        #expect(
            out.text == """
                # HELP a_total help with \\\\ and\\nnewline
                # TYPE a_total counter
                a_total{face="q\\"u\\\\o\\nte"} 3
                a_total{face="b"} 0.25
                # HELP b h
                # TYPE b gauge
                b NaN

                """)
    }

    static func document() -> ServeStatisticsDocument {
        func viewer(_ id: Int, _ transport: String, _ bytes: Int) -> ServeViewerStatistics {
            ServeViewerStatistics(
                id: id, transport: transport, format: transport == "rtsp" ? .elementary : .mpegTS, address: "192.0.2.\(id):4000",
                bytesSent: bytes, queueBytes: 100, queueChunks: 1, lagSeconds: 0, skips: 1, droppedChunks: 0, connectedSeconds: 1,
                rttMs: transport == "srt" ? 12 : nil, lostPackets: transport == "srt" ? 3 : nil)
        }
        var totals = ServeHub.Totals()
        totals.served = 5
        totals.refusedFull = 2
        totals.skipsOfViewersGone = 4
        totals.bytesSentOfViewersGone = ["http": 1000, "whatever": 7]
        var encoder = LiveStatistics()
        encoder.framesIn = 300
        encoder.framesOut = 299
        encoder.fpsOut = 29.97
        encoder.encodeLatencyP99Ms = 12.5
        return ServeStatisticsDocument(
            encoder: encoder, totals: totals, requestsTimedOut: 1, httpMessages: 0, recentHTTPMessages: [],
            viewers: [viewer(1, "http", 500), viewer(2, "http", 250), viewer(3, "srt", 40), viewer(4, "rtsp", 60)])
    }

    @Test func theMetricsHoldEveryFaceAndNoViewerOrAddress() throws {
        let clock = ManualClock()
        let health = ServeHealth(streams: [.video]) { clock.now }
        health.outputFailed("a.ts", reason: "x")
        let text = ServeMetrics.text(document: Self.document(), health: health, process: .current(), maxViewers: 8)
        let lines = Set(text.split(separator: "\n").map(String.init))
        for expected in [
            "onair_viewers{face=\"http\"} 2", "onair_viewers{face=\"srt\"} 1", "onair_viewers{face=\"rtsp\"} 1",
            "onair_viewers{face=\"webrtc\"} 0", "onair_viewers_bytes_sent_total{face=\"http\"} 1750",
            "onair_viewers_bytes_sent_total{face=\"other\"} 7", "onair_viewers_skips_total 8", "onair_viewers_refused_total 2",
            "onair_viewers_max 8", "onair_encoder_frames_total 299", "onair_capture_frames_total 300", "onair_encoder_fps 29.97",
            "onair_encoder_latency_p99_seconds 0.0125", "onair_srt_viewers_rtt_max_seconds 0.012", "onair_outputs_failed_total 1",
            "onair_healthy 0", "# TYPE process_cpu_seconds_total counter",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
        #expect(!text.contains("192.0.2."))
        #expect(!text.contains("id=\""))
        #expect(lines.contains { $0.hasPrefix("process_resident_memory_bytes ") && !$0.hasSuffix(" 0") })
        #expect(lines.contains { $0.hasPrefix("process_open_fds ") && !$0.hasSuffix(" 0") })
    }

    @Test func motionIsCountedOnlyWhileTheDetectorRuns() {
        let motion = ServeMotion()
        let off = ServeMetrics.text(document: Self.document(), health: nil, process: .current(), maxViewers: 8, motion: motion.figures)
        #expect(!off.contains("onair_motion"))
        motion.enable()
        let heard = Locked<[Bool]>([])
        motion.listen { isMotion, _ in heard.withLock { $0.append(isMotion) } }
        motion.changed(isMotion: true, at: Date())
        motion.changed(isMotion: false, at: Date())
        motion.changed(isMotion: true, at: Date())
        let lines = ServeMetrics.text(document: Self.document(), health: nil, process: .current(), maxViewers: 8, motion: motion.figures)
            .split(separator: "\n")
        #expect(lines.contains("onair_motion_events_total{change=\"started\"} 2"))
        #expect(lines.contains("onair_motion_events_total{change=\"ended\"} 1"))
        #expect(lines.contains("onair_motion_active 1"))
        #expect(heard.current == [true, false, true])
    }

    @Test(.enabled(if: Tools.executable(onPath: "promtool") != nil, "promtool is not installed (scripts/setup.sh fetches it)"))
    func promtoolFindsNothingToSay() throws {
        let motion = ServeMotion.Figures(enabled: true, starts: 2, ends: 1, active: true)
        let text = ServeMetrics.text(
            document: Self.document(), health: ServeHealth(streams: [.video]), process: .current(), maxViewers: 8, motion: motion)
        let result = try Tools.run("promtool", ["check", "metrics"], stdin: Data(text.utf8))
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
        #expect(result.stdoutText.isEmpty && result.stderr.isEmpty, "\(result.stdoutText)\(result.stderr)")
    }
}
#endif
