#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve`'s `/metrics` (checked by `promtool check metrics`), `/healthz` and `/readyz`:
/// answered without the token to the address ranges allowed and refused to others; the viewer
/// gauge follows a viewer joining and leaving while the byte counter never goes down; a failed
/// recording turns `/healthz` to 503 with the reason.
@Suite(.serialized) struct ServeMetricsHealthTests {
    static let promtool = Tools.executable(onPath: "promtool")

    /// The value of the sample line starting with `prefix` followed by a space, or nil.
    static func sample(_ text: String, _ prefix: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.dropFirst(prefix.count + 1)) }
    }

    @Test func metricsFollowAViewerAndTheOperatorPathsKeepToTheirAddresses() throws {
        let dir = try Tools.temporaryDirectory("serve-metrics")
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("onair.yml")
        try "token: [metrics-token-1]\nhealth-addresses: [10.0.0.0/8]\n".write(to: config, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(directory: dir, duration: 25, arguments: ["--config", config.path])
        defer { _ = server.finish(timeout: 0) }
        #expect(try server.get("/stats.json").status == 401)
        // Loopback is not in health-addresses here: from outside the ranges the credentials decide
        // (none given: 401; the token: answered).
        #expect(try server.get("/healthz").status == 401)
        #expect(try server.get("/readyz").status == 401)
        #expect(try server.get("/readyz?token=metrics-token-1").status == 401, "the query token counts only on stream paths")
        func metrics() -> String {
            (try? server.get("/metrics")).map { $0.status == 200 ? String(decoding: $0.body, as: UTF8.self) : "" } ?? ""
        }
        #expect(waitUntil(timeout: 15) { Self.sample(metrics(), "onair_encoder_frames_total").map { $0 > 0 } ?? false })
        let viewer = try StreamTestProcess(
            "curl", ["-s", "-m", "20", "-o", "/dev/null", server.url("/live.ts?token=metrics-token-1")],
            stderrPath: dir.appendingPathComponent("viewer.log").path)
        #expect(waitUntil(timeout: 15) { Self.sample(metrics(), "onair_viewers{face=\"http\"}") == 1 })
        #expect(waitUntil(timeout: 15) { (Self.sample(metrics(), "onair_viewers_bytes_sent_total{face=\"http\"}") ?? 0) > 10_000 })
        let whileWatching = metrics()
        if let promtool = Self.promtool {
            let checked = try Tools.run(promtool, ["check", "metrics"], stdin: Data(whileWatching.utf8))
            #expect(checked.status == 0 && checked.stdoutText.isEmpty && checked.stderr.isEmpty, "\(checked.stdoutText)\(checked.stderr)")
        }
        let bytesWatching = Self.sample(whileWatching, "onair_viewers_bytes_sent_total{face=\"http\"}") ?? 0
        viewer.kill()
        #expect(waitUntil(timeout: 15) { Self.sample(metrics(), "onair_viewers{face=\"http\"}") == 0 })
        let after = metrics()
        #expect((Self.sample(after, "onair_viewers_bytes_sent_total{face=\"http\"}") ?? 0) >= bytesWatching)
        #expect(Self.sample(after, "onair_viewers_served_total") == 1)
        #expect(Self.sample(after, "onair_healthy") == 1)
        #expect(!after.contains("127.0.0.1"), "an address in the metrics")
    }

    @Test func aRecordingThatCannotBeWrittenMakesHealthz503WithTheReason() throws {
        let dir = try Tools.temporaryDirectory("serve-health")
        defer { try? FileManager.default.removeItem(at: dir) }
        let link = dir.appendingPathComponent("full.ts").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/full")
        let server = try ServeTestServer(directory: dir, duration: 25, arguments: ["-o", link])
        defer { _ = server.finish(timeout: 0) }
        #expect(try server.get("/readyz").status == 200)
        var reply: (status: Int, body: Data) = (0, Data())
        #expect(
            waitUntil(timeout: 15) {
                reply = (try? server.get("/healthz")) ?? (0, Data()); return reply.status == 503
            })
        let verdict = (try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]) ?? [:]
        #expect(verdict["status"] as? String == "unhealthy")
        let reasons = (verdict["reasons"] as? [String]) ?? []
        #expect(reasons.contains { $0.contains(link) && $0.contains("No space left on device") }, "\(reasons)")
        let metrics = String(decoding: try server.get("/metrics").body, as: UTF8.self)
        #expect(Self.sample(metrics, "onair_outputs_failed_total") == 1)
        #expect(Self.sample(metrics, "onair_healthy") == 0)
        // The stream itself goes on.
        #expect(
            waitUntil(timeout: 15) {
                let text = (try? server.get("/metrics")).map { String(decoding: $0.body, as: UTF8.self) } ?? ""
                return (Self.sample(text, "onair_encoder_frames_total") ?? 0) > 0
            })
    }
}
#endif
