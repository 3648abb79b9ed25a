#if os(Linux)
import Foundation
import Glibc
import OnAirTestSupport
import Testing

/// An HTTP viewer that stops reading costs the others nothing (issue 45's verification for
/// HTTP): `onair serve` with one `/live.ts` reader that connects and never reads and seven curl
/// readers beside it.
@Suite struct ServeHTTPStallTests {
    /// A `/live.ts` request on a socket with a small receive buffer that is then never read.
    static func stalledReader(port: Int) throws -> Int32 {
        let fd = try connectLoopback(port: port, receiveBuffer: 4096)
        let request = Array("GET /live.ts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            close(fd)
            throw StreamTestError("the stalled reader could not send its request")
        }
        return fd
    }

    /// Reads what `fd` holds without waiting; whether the server has ended the connection
    /// (end of stream or reset).
    static func drainedToTheEnd(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            return count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// What ffmpeg says decoding the first `seconds` of `path` (a curl copy ends in a packet cut
    /// where curl's time ran out, which is not the server's doing).
    static func decodeErrors(_ path: String, seconds: Int) throws -> String {
        try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", path, "-t", "\(seconds)", "-f", "null", "-"]).stderr
    }

    /// One reader stalls for good while seven curl readers copy 20 s: each copy decodes without
    /// an error and holds the frames the encoder made meanwhile (its rate within 5 % of the
    /// recording's, no gap wider than the recording's own); the stalled one is cut once its
    /// oldest chunk waited the viewer timeout, and its connection is closed.
    @Test func aReaderThatStopsReadingIsCutWhileSevenCurlReadersGetAContinuousStream() throws {
        let dir = try Tools.temporaryDirectory("serve-http-stall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        let timeout = 3
        let server = try ServeTestServer(
            directory: dir, duration: 60,
            arguments: ["--viewer-timeout", "\(timeout)", "--keyint-duration", "1", "-o", recording])
        defer { _ = server.stop() }
        func totals() -> [String: Any] { ((try? server.statistics())?["totals"] as? [String: Any]) ?? [:] }
        let stalled = try Self.stalledReader(port: server.port)
        defer { close(stalled) }
        #expect(waitUntil(timeout: 10) { totals()["served"] as? Int == 1 }, "\(totals())")
        let outs = (0..<7).map { dir.appendingPathComponent("copy\($0).ts").path }
        let readers = try outs.map { out in
            try StreamTestProcess(
                "curl", ["-s", "-m", "20", "-o", out, server.url("/live.ts")], stderrPath: out + ".log")
        }
        // Cut once its socket was full and its oldest chunk had waited the timeout: a few
        // seconds in (the stream is 600 kb/s, the kernel's buffers hold about two of them).
        #expect(waitUntil(timeout: 20) { totals()["cut_too_slow"] as? Int == 1 }, "never cut: \(totals())")
        let cut = server.process.stderr.split(separator: "\n").filter { $0.contains(") cut: too slow") }
        #expect(cut.count == 1 && cut.first?.contains("timeout \(timeout) s") == true, "\(cut)")
        // "connected 4.6 s ago": the timeout after its socket filled, not before, not long after.
        let connected = cut.first.flatMap { line in
            line.range(of: "connected ").flatMap { Double(line[$0.upperBound...].prefix { $0 != " " }) }
        }
        #expect(connected.map { (Double(timeout)...Double(timeout + 8)).contains($0) } == true, "\(cut)")
        #expect(waitUntil(timeout: 10) { Self.drainedToTheEnd(stalled) }, "the stalled reader's connection stayed open")
        for reader in readers { #expect(reader.wait(timeout: 40), "curl did not finish: \(reader.stderr)") }
        let after = totals()
        #expect(server.stop(), "serve did not stop cleanly on SIGINT: \(server.process.stderr)")
        #expect(after["served"] as? Int == 8 && after["cut_too_slow"] as? Int == 1, "\(after)")

        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 15)
        for out in outs {
            let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
            #expect(coverage.firstIsKey, "\(out) does not start on a keyframe")
            #expect(coverage.expected >= 15 * 17, "\(out): \(coverage)")
            #expect(
                ServeRTSPTests.rate(coverage, fps: 15) >= 0.95 * ServeRTSPTests.rate(recorded, fps: 15)
                    && coverage.largestGap <= recorded.largestGap + 1.5 / 15, "\(out): \(coverage), recording \(recorded)")
            let errors = try Self.decodeErrors(out, seconds: 18)
            #expect(errors.isEmpty, "\(out): \(errors)")
        }
    }
}
#endif
