#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream` as MPEG-TS over SRT (both directions, with a passphrase), UDP and TCP, received
/// by ffmpeg on loopback.
@Suite(.serialized) struct StreamTransportTests {
    static let onair = Tools.onairExecutable
    static let passphrase = "onair-test-secret"
    static let size = ["--size", "320x240", "--fps", "30", "--preset", "ultrafast"]

    /// Receives with ffmpeg into `file` until the stream ends (or `timeout`), then checks the media.
    static func received(_ receiver: StreamTestProcess, _ file: String, timeout: Double = 20) throws -> StreamMediaCheck {
        if !receiver.wait(timeout: timeout) { receiver.stop() }
        return try StreamMediaCheck(file)
    }

    static func ffmpeg(_ input: String, _ output: String, dir: URL, extra: [String] = []) throws -> StreamTestProcess {
        try StreamTestProcess(
            "ffmpeg", ["-hide_banner", "-v", "error", "-y"] + extra + ["-i", input, "-c", "copy", output],
            stderrPath: output + ".log")
    }

    @Test func srtCallerToFFmpegListenerWithPassphrase() throws {
        let dir = try Tools.temporaryDirectory("stream-srt-caller")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("srt.ts").path
        let (listener, port) = try StreamTestPorts.peer(udp: true) { port in
            try Self.ffmpeg("srt://127.0.0.1:\(port)?mode=listener&passphrase=\(Self.passphrase)", file, dir: dir)
        }
        defer { listener.kill() }
        let result = try Tools.run(
            Self.onair,
            ["stream", "--duration", "6"] + Self.size
                + ["srt://127.0.0.1:\(port)?latency=20000&passphrase=\(Self.passphrase)&streamid=onair"])
        #expect(result.status == 0, "\(result.stderr)")
        let media = try Self.received(listener, file)
        print("srt caller: \(media.duration) s")
        #expect(media.isH264AndAAC(width: 320, height: 240, rate: 30), "\(media) \(listener.stderr)")
        #expect(media.duration >= 5, "\(media.duration) s")
    }

    @Test func srtListenerServesFFmpegCallerWithPassphrase() throws {
        let dir = try Tools.temporaryDirectory("stream-srt-listener")
        defer { try? FileManager.default.removeItem(at: dir) }
        let streamer = try StreamTestProcess(
            Self.onair,
            ["stream", "--duration", "10"] + Self.size
                + ["srt://127.0.0.1:0?mode=listener&latency=20000&passphrase=\(Self.passphrase)"],
            stderrPath: dir.appendingPathComponent("onair.log").path)
        defer { streamer.kill() }
        // Its listener is bound on port 0 and named in the "waiting for the receiver" line.
        let port = try streamer.announcedPort("srt://127.0.0.1:")
        #expect(streamer.waitReady { StreamTestPorts.udpBound(port) }, "onair never listened: \(streamer.stderr)")
        let file = dir.appendingPathComponent("srt.ts").path
        let caller = try Self.ffmpeg("srt://127.0.0.1:\(port)?passphrase=\(Self.passphrase)", file, dir: dir)
        defer { caller.kill() }
        let media = try Self.received(caller, file)
        #expect(streamer.wait(timeout: 20))
        #expect(streamer.process.terminationStatus == 0, "\(streamer.stderr)")
        print("srt listener: \(media.duration) s")
        #expect(media.isH264AndAAC(width: 320, height: 240, rate: 30), "\(media) \(caller.stderr)")
        #expect(media.duration >= 5, "\(media.duration) s")
    }

    @Test func srtWrongPassphraseIsRefusedWithAClearMessage() throws {
        let dir = try Tools.temporaryDirectory("stream-srt-wrong")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (listener, port) = try StreamTestPorts.peer(udp: true) { port in
            try Self.ffmpeg(
                "srt://127.0.0.1:\(port)?mode=listener&passphrase=\(Self.passphrase)",
                dir.appendingPathComponent("never.ts").path, dir: dir)
        }
        defer { listener.kill() }
        let result = try Tools.run(
            Self.onair,
            ["stream", "--duration", "5"] + Self.size
                + ["srt://127.0.0.1:\(port)?passphrase=not-the-right-one"])
        let message = result.stderr.split(separator: "\n").last { $0.hasPrefix("onair: error:") } ?? ""
        print("wrong passphrase: \(message)")
        #expect(result.status == 1)
        #expect(message.contains("wrong passphrase") && message.contains("passphrase=***"), "\(result.stderr)")
        #expect(!result.stderr.contains("not-the-right-one"), "the passphrase leaked into the output")
    }

    @Test func udpTransportStreamIsReceived() throws {
        let dir = try Tools.temporaryDirectory("stream-udp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("udp.ts").path
        // `timeout` (µs) ends ffmpeg's input once packets stop arriving, and before the first one:
        // 10 s leaves a loaded machine time to start the stream (3 s did not, once, in another test).
        let (receiver, port) = try StreamTestPorts.peer(udp: true) { port in
            try Self.ffmpeg("udp://127.0.0.1:\(port)?timeout=10000000&fifo_size=100000", file, dir: dir)
        }
        defer { receiver.kill() }
        let result = try Tools.run(Self.onair, ["stream", "--duration", "6"] + Self.size + ["udp://127.0.0.1:\(port)?pkt_size=1316"])
        #expect(result.status == 0, "\(result.stderr)")
        let media = try Self.received(receiver, file)
        print("udp: \(media.duration) s")
        #expect(media.isH264AndAAC(width: 320, height: 240, rate: 30), "\(media) \(receiver.stderr)")
        #expect(media.duration >= 5, "\(media.duration) s")
    }

    @Test func tcpListenerServesFFmpegClient() throws {
        let dir = try Tools.temporaryDirectory("stream-tcp")
        defer { try? FileManager.default.removeItem(at: dir) }
        // FFmpeg binds the listener (and takes no port 0): onair gets a port like an outside peer.
        // Polling with a TCP connect would itself be the client: the helper waits for the listening socket instead.
        let (streamer, port) = try StreamTestPorts.peer(timeout: 30) { port in
            try StreamTestProcess(
                Self.onair,
                ["stream", "--duration", "10"] + Self.size
                    + ["tcp://127.0.0.1:\(port)?listen=1"],
                stderrPath: dir.appendingPathComponent("onair.log").path)
        }
        defer { streamer.kill() }
        let file = dir.appendingPathComponent("tcp.ts").path
        let client = try Self.ffmpeg("tcp://127.0.0.1:\(port)", file, dir: dir)
        defer { client.kill() }
        let media = try Self.received(client, file)
        #expect(streamer.wait(timeout: 20))
        #expect(streamer.process.terminationStatus == 0, "\(streamer.stderr)")
        print("tcp listener: \(media.duration) s")
        #expect(media.isH264AndAAC(width: 320, height: 240, rate: 30), "\(media) \(client.stderr)")
        #expect(media.duration >= 5, "\(media.duration) s")
    }

    @Test func tcpCallerToFFmpegListener() throws {
        let dir = try Tools.temporaryDirectory("stream-tcp-caller")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tcp.ts").path
        let (receiver, port) = try StreamTestPorts.peer { port in try Self.ffmpeg("tcp://127.0.0.1:\(port)?listen=1", file, dir: dir) }
        defer { receiver.kill() }
        let result = try Tools.run(Self.onair, ["stream", "--duration", "6"] + Self.size + ["tcp://127.0.0.1:\(port)"])
        #expect(result.status == 0, "\(result.stderr)")
        let media = try Self.received(receiver, file)
        print("tcp caller: \(media.duration) s")
        #expect(media.isH264AndAAC(width: 320, height: 240, rate: 30), "\(media) \(receiver.stderr)")
        #expect(media.duration >= 5, "\(media.duration) s")
    }
}
#endif
