#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream --codec h265` pushing one encode to every push transport at once: RTSP publishing
/// (ANNOUNCE/RECORD into FFmpeg's RTSP listener, RFC 7798 payloading), MPEG-TS over UDP, SRT
/// and TCP, each received by ffmpeg. Every copy is HEVC Main at the asked size, starts on a
/// keyframe and decodes with no error.
@Suite struct StreamHEVCTests {
    @Test func everyPushTransportCarriesH265() throws {
        let dir = try Tools.temporaryDirectory("stream-hevc")
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String) -> String { dir.appendingPathComponent(name).path }
        let kinds: [(name: String, udp: Bool, input: (Int) -> String)] = [
            ("rtsp.mkv", false, { "rtsp://127.0.0.1:\($0)/live" }),
            ("udp.ts", true, { "udp://127.0.0.1:\($0)?timeout=30000000" }),
            ("srt.ts", true, { "srt://127.0.0.1:\($0)?mode=listener" }),
            ("tcp.ts", false, { "tcp://127.0.0.1:\($0)?listen=1" }),
        ]
        // Every receiver is listening before the first connection (a refused first one stops the
        // command): each holds its port when `StreamTestPorts.peer` returns.
        let started = try kinds.map { kind in
            try StreamTestPorts.peer(udp: kind.udp) { port in
                try StreamTestProcess(
                    "ffmpeg",
                    ["-hide_banner", "-nostdin", "-v", "error"]
                        + (kind.name == "rtsp.mkv" ? ["-rtsp_flags", "listen", "-timeout", "30"] : [])
                        + ["-i", kind.input(port), "-t", "4", "-c", "copy", "-y", file(kind.name)],
                    stderrPath: file(kind.name + ".log"))
            }
        }
        let receivers = started.map(\.process)
        defer { for receiver in receivers { receiver.kill() } }
        let inputs = zip(kinds, started).map { kind, peer in (name: kind.name, input: kind.input(peer.port)) }
        let (udpPort, srtPort, tcpPort) = (started[1].port, started[2].port, started[3].port)
        let stream = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "stream", "--codec", "h265", "--duration", "8", "--size", "320x240", "--fps", "15", "--bitrate", "500k",
                "--preset", "ultrafast", "--keyint-duration", "1", "--no-adaptive",
                inputs[0].input, "udp://127.0.0.1:\(udpPort)?pkt_size=1316", "srt://127.0.0.1:\(srtPort)", "tcp://127.0.0.1:\(tcpPort)",
            ],
            stderrPath: file("stream.log"))
        for (receiver, input) in zip(receivers, inputs) {
            #expect(receiver.wait(timeout: 40), "\(input.name): \(receiver.stderr)")
        }
        #expect(stream.wait(timeout: 40), "onair stream did not stop: \(stream.stderr)")
        for (name, _) in inputs {
            let probe = try Tools.run(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,profile,width,height", "-of", "csv=p=0",
                    file(name),
                ])
            #expect(probe.stdoutText.split(separator: "\n").first == "hevc,Main,320,240", "\(name): \(probe.stdoutText)")
            let coverage = try ServeCommandTests.videoCoverage(file(name), fps: 15)
            #expect(coverage.frames >= 45 && coverage.firstIsKey, "\(name): \(coverage)")
            #expect(try ServeCommandTests.decodeErrors(file(name)).isEmpty, "\(name)")
        }
    }
}

#endif
