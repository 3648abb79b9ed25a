#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream rtsp://…` publishing (ANNOUNCE/RECORD, RTP interleaved over TCP) into FFmpeg's
/// RTSP listener, and resuming on a keyframe into a new listener after the first one left.
@Suite(.serialized) struct StreamRTSPTests {
    /// Whether a TCP socket listens on `port` (read from /proc/net/tcp, state 0A).
    static func listens(_ port: Int) -> Bool {
        let needle = String(format: ":%04X", port)
        return ["/proc/net/tcp", "/proc/net/tcp6"].contains { path in
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").contains { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(needle) && fields[3] == "0A"
            }
        }
    }

    @Test func publishesToAnRTSPListenerAndResumesOnAKeyframeIntoTheNextOne() throws {
        let dir = try Tools.temporaryDirectory("stream-rtsp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let outs = ["first.ts", "second.ts"].map { dir.appendingPathComponent($0).path }
        func listener(_ index: Int, seconds: Int, port: Int) throws -> StreamTestProcess {
            try StreamTestProcess(
                "ffmpeg",
                [
                    "-hide_banner", "-nostdin", "-v", "error", "-rtsp_flags", "listen", "-timeout", "30",
                    "-i", "rtsp://127.0.0.1:\(port)/live", "-t", "\(seconds)", "-c", "copy", "-y", outs[index],
                ],
                stderrPath: dir.appendingPathComponent("listener\(index).log").path)
        }
        // Started and waited for until it listens (without connecting: FFmpeg's listener takes the
        // first connection as its publisher): onair stream gives up on a first connection that is refused.
        let (first, port) = try StreamTestPorts.peer { port in try listener(0, seconds: 4, port: port) }
        let url = "rtsp://127.0.0.1:\(port)/live"
        let stream = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "stream", "--duration", "20", "--size", "320x240", "--fps", "15",
                "--bitrate", "600k", "--keyint-duration", "1", url,
            ],
            stderrPath: dir.appendingPathComponent("stream.log").path)
        #expect(first.wait(timeout: 30), "the first listener did not finish: \(first.stderr)")
        // The next listener on the same port, where onair stream reconnects.
        let second = try listener(1, seconds: 5, port: port)
        #expect(second.wait(timeout: 40), "the second listener did not finish: \(second.stderr)")
        #expect(stream.wait(timeout: 40), "onair stream did not stop: \(stream.stderr)")
        for out in outs {
            let coverage = try ServeCommandTests.videoCoverage(out, fps: 15)
            #expect(coverage.frames >= 30 && coverage.firstIsKey && coverage.largestGap <= 0.5, "\(out): \(coverage); \(stream.stderr)")
            #expect(try ServeCommandTests.decodeErrors(out).isEmpty, "\(out)")
        }
        let summary = stream.stderr.split(separator: "\n").last { $0.hasPrefix("stopped") } ?? ""
        #expect(summary.contains("reconnects") && !summary.contains(" 0 reconnects"), "\(summary)")
    }

    /// `onair stream rtsps://` into gst-rtsp-server in RECORD mode behind TLS
    /// (Tests/Tools/rtsps_record_server.py), which decodes what arrives: every frame sent, and the
    /// password in the URL never printed. FFmpeg cannot check the server's certificate here, and
    /// the command says so.
    @Test func publishesInsideTLSToAnRTSPSServerThatDecodesEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("stream-rtsps")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try ServeTLSTests.TestCA(dir)
        let script = Tools.packageRoot.appendingPathComponent("Tests/Tools/rtsps_record_server.py").path
        let server = try StreamTestProcess(
            "/usr/bin/python3", [script, "0", ca.certificate, ca.key, "30"],
            stderrPath: dir.appendingPathComponent("server.log").path, stdoutPath: dir.appendingPathComponent("server.json").path)
        defer { server.kill() }
        let port = try server.announcedPort("listening 127.0.0.1:")
        #expect(waitUntil(timeout: 10) { Self.listens(port) }, "the RTSPS server did not listen: \(server.stderr)")
        let stream = try Tools.run(
            Tools.onairExecutable,
            [
                "stream", "--duration", "3", "--size", "320x240", "--fps", "15", "--preset", "ultrafast", "--no-adaptive",
                "rtsps://cam:pub-s3cret@127.0.0.1:\(port)/live",
            ], timeout: 30)
        #expect(stream.status == 0, "\(stream.stderr)")
        #expect(stream.stderr.contains("does not check the server's certificate"), "\(stream.stderr)")
        #expect(!stream.stderr.contains("pub-s3cret"), "the password was printed: \(stream.stderr)")
        #expect(server.wait(timeout: 15), "the RTSPS server did not end after the publisher left")
        let text = (try? String(contentsOfFile: dir.appendingPathComponent("server.json").path, encoding: .utf8)) ?? ""
        let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""  // after its "listening" line
        let json = (try? JSONSerialization.jsonObject(with: Data(last.utf8))) as? [String: Any] ?? [:]
        let counts = json.compactMapValues { $0 as? Int }
        let sent =
            stream.stderr.split(separator: "\n").last { $0.hasPrefix("stopped") }.flatMap { line in
                line.split(separator: " ").firstIndex(of: "video").map { Int(line.split(separator: " ")[$0 - 1]) ?? 0 }
            } ?? 0
        #expect(sent >= 30, "\(stream.stderr)")
        #expect(counts["video_frames"] == sent, "decoded \(counts) of \(sent) frames sent")
        #expect((counts["audio_frames"] ?? 0) >= 120, "\(counts)")
    }
}
#endif
