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
        let rtspPort = try StreamTestPorts.free()
        let udpPort = try StreamTestPorts.free(udp: true)
        let srtPort = try StreamTestPorts.free(udp: true)
        let tcpPort = try StreamTestPorts.free()
        let inputs: [(name: String, input: String)] = [
            ("rtsp.mkv", "rtsp://127.0.0.1:\(rtspPort)/live"),
            ("udp.ts", "udp://127.0.0.1:\(udpPort)?timeout=30000000"),
            ("srt.ts", "srt://127.0.0.1:\(srtPort)?mode=listener"),
            ("tcp.ts", "tcp://127.0.0.1:\(tcpPort)?listen=1"),
        ]
        let receivers = try inputs.map { name, input in
            try StreamTestProcess(
                "ffmpeg",
                ["-hide_banner", "-nostdin", "-v", "error"] + (name == "rtsp.mkv" ? ["-rtsp_flags", "listen", "-timeout", "30"] : [])
                    + ["-i", input, "-t", "4", "-c", "copy", "-y", file(name)],
                stderrPath: file(name + ".log"))
        }
        defer { for receiver in receivers { receiver.kill() } }
        // Every receiver is listening before the first connection (a refused first one stops the command).
        #expect(
            waitUntil(timeout: 20) {
                [rtspPort, tcpPort].allSatisfy(StreamRTSPTests.listens) && StreamTestPorts.udpBound(udpPort)
                    && StreamTestPorts.udpBound(srtPort)
            }, "the receivers did not listen")
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
