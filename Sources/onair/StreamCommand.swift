#if os(Linux)
import Foundation
import OnAir

/// `onair stream`: capture, encode once, send to every network destination (and record any files)
/// until the duration passes or Ctrl-C / SIGTERM arrives; dropped connections are re-made.
struct StreamCommand: Command {
    static let name = "stream"
    static let summary = "capture, encode and stream (RTMP, SRT, UDP, TCP, WHIP) in real time"
    static let help = """
        Usage: onair stream [--video SRC] [--audio SRC] [--duration S] URL [URL …] [-o FILE …] [encoder flags]

        Captures video and audio, encodes them once (H.264 + AAC) and sends them to every URL, while
        also recording any -o files from the same encode:
          rtmp://host:port/app/key                         FLV over RTMP (publish)
          rtmps://host:port/app/key                        FLV over RTMP in TLS (port 443 by default;
                                                           the server's certificate is checked)
          srt://host:port?mode=caller|listener&latency=US&passphrase=P&streamid=ID
                                                           MPEG-TS over SRT through libsrt (latency in
                                                           microseconds; passphrase 10–79 characters;
                                                           also pbkeylen, payload_size, maxbw, tlpktdrop,
                                                           snddropdelay, sndbuf, rcvbuf; a listener on
                                                           port 0 gets a free port, named in its
                                                           "waiting for the receiver" line)
          udp://host:port?pkt_size=1316                    MPEG-TS over UDP
          tcp://host:port[?listen=1]                       MPEG-TS over TCP (listen=1: the receiver connects)
          rtsp://host:port/path                            RTSP publishing (ANNOUNCE/RECORD, RTP interleaved over TCP)
          rtsps://host:port/path                           the same inside TLS (FFmpeg does not check the
                                                           server's certificate: encrypted, not authenticated)
          whip+http(s)://host:port/path                    WebRTC to a WHIP endpoint (H.264 + Opus; --token)
        A lost or stalled connection is re-made (backoff 0.25 s doubling to --reconnect-max) and
        restarts on a fresh keyframe; files are not affected. Only a first connection that fails
        (wrong address, SRT passphrase refused) stops the command.

        \(CaptureSourceFactory.sourcesHelp)
        With neither --video nor --audio, both are synthetic.

          --video SRC, --audio SRC     what to capture
          --duration S                 stop after S seconds of media
          -o, --output FILE            also record to a file (repeatable)
          --send-timeout S             a send stalled this long drops the connection (default 3)
          --connect-timeout S          how long connecting may take (default 5)
          --reconnect-max S            longest wait between reconnect attempts (default 2)
          --max-backlog S              when more than S seconds of media wait for a connection (the
                                       link is slower than the stream), skip to a fresh keyframe and
                                       drop the rest, so the delay stays bounded (default 2; 0: never
                                       skip, the delay grows instead); files are never cut
          --stats-json FILE            the once-a-second statistics as JSON lines
          --token TOKEN                whip+http(s): the Bearer token the WHIP server expects
          --ca-file FILE               rtmps, whip+https: trust the certificate authorities in this PEM
                                       file instead of the system's
          --no-tls-verify              rtmps, whip+https: do not check the server's certificate (testing only)
          --no-adaptive                keep the video bitrate fixed at --bitrate
          --min-bitrate RATE           adaptive bitrate never goes below this (default a tenth of
                                       --max-bitrate, at least 100k)
          --max-bitrate RATE           adaptive bitrate never goes above this (default --bitrate)

        Adaptive bitrate (on by default) is a congestion controller per URL, fed by the transport
        itself: TCP's own figures (bytes acknowledged, unsent bytes, round trip) for RTMP, RTMPS and
        TCP; libsrt's statistics (send buffer, round trip, drops) for SRT. When the delay between the
        encoder and the wire grows, the video bitrate steps down at once to 85 % of what the link
        delivered (the link estimate) minus the audio; while the queue stays empty it goes straight back to 85 % of the estimate, then probes up by
        15 %, 30 %, … 60 % as long as the link carries it, up to --max-bitrate. Each change is shown
        as an "abr:" line with its reason, and in the statistics (link estimate, delay).
        --max-backlog counts everything queued between the encoder and the wire (OnAir's queue, the
        socket's or SRT's send buffer), so the viewer's delay stays within it plus a frame or two.
        Congestion alone never drops a connection; a reconnect resets the old one first (a server
        answering "Already publishing" still holds it, and the next attempt follows).
        UDP gives no feedback: over udp:// the bitrate stays fixed and nothing is cut. Over whip+http://
        it follows the server's RTCP receiver reports (loss, round trip); PLI/FIR ask for a keyframe.

        """ + EncodingOptions.help

    let settings: SessionSettings
    let statsJSON: String?

    init(arguments: inout ArgumentList) throws {
        let capture = try CaptureArguments(arguments: &arguments)
        let files = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var streaming = StreamingSettings()
        streaming.bearerToken = try arguments.option("--token")
        if let value = try arguments.option("--send-timeout") {
            streaming.reconnect.sendTimeout = try Self.seconds(value, "--send-timeout")
        }
        if let value = try arguments.option("--connect-timeout") {
            streaming.reconnect.connectTimeout = try Self.seconds(value, "--connect-timeout")
        }
        if let value = try arguments.option("--reconnect-max") {
            streaming.reconnect.maximumDelay = max(try Self.seconds(value, "--reconnect-max"), streaming.reconnect.initialDelay)
        }
        streaming.adaptiveBitRate = !arguments.flag("--no-adaptive")
        if let value = try arguments.option("--max-backlog") {
            let seconds = try EncodingOptions.number(value, "--max-backlog")
            guard seconds >= 0 else { throw UsageError("--max-backlog must be 0 or more") }
            streaming.maximumBacklog = seconds > 0 ? .seconds(seconds) : nil
        }
        streaming.minimumBitRate = try arguments.option("--min-bitrate").map { try EncodingOptions.rate($0, "--min-bitrate") }
        streaming.maximumBitRate = try arguments.option("--max-bitrate").map { try EncodingOptions.rate($0, "--max-bitrate") }
        for case let rate? in [streaming.minimumBitRate, streaming.maximumBitRate] where rate <= 0 {
            throw UsageError("--min-bitrate and --max-bitrate must be positive")
        }
        if let minimum = streaming.minimumBitRate, let maximum = streaming.maximumBitRate, minimum > maximum {
            throw UsageError("--min-bitrate must not exceed --max-bitrate")
        }
        let encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        streaming.verifiesTLSCertificate = !arguments.flag("--no-tls-verify")
        streaming.tlsCAFile = try arguments.option("--ca-file")
        if let caFile = streaming.tlsCAFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw UsageError("--ca-file \(caFile): no such readable file")
        }
        let urls = arguments.positionals()
        guard !urls.isEmpty else { throw UsageError("stream needs at least one URL") }
        for url in urls {
            guard OutputRegistry.isURL(url) else { throw UsageError("'\(url)' is not a URL; files go with -o") }
            if let reason = try OutputRegistry.checkURL(url) {
                // Named without its credentials or query: a password is never printed.
                var shown = URLComponents(string: url)
                shown?.user = nil
                shown?.password = nil
                shown?.query = nil
                Console.status("note: \(shown?.string ?? "rtsps://"): \(reason)")
            }
        }
        if capture.videoSpec == "none" && capture.audioSpec == "none" {
            throw UsageError("--video none and --audio none leave nothing to stream")
        }
        var settings = try CaptureSourceFactory.settings(capture, encoding: encoding)
        settings.outputs = urls + files
        settings.streaming = streaming
        self.settings = settings
    }

    private static func seconds(_ text: String, _ flag: String) throws -> Double {
        let value = try EncodingOptions.number(text, flag)
        guard value > 0 else { throw UsageError("\(flag) must be positive") }
        return value
    }

    func run() throws -> Int32 {
        // A peer that closes its socket must give a send error, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let printer = try StatisticsPrinter(label: "live", jsonPath: statsJSON, network: true)
        let outcome = try SessionConsole.run(SessionBuilder(settings), printer: printer) { session in
            for name in session.waitingForReceivers { Console.status("\(name): waiting for the receiver to connect") }
        }
        let last = outcome.statistics
        Console.status(
            "stopped (\(outcome.reason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped, \(last.reconnects) reconnects, \(String(format: "%.1f", last.offlineSeconds)) s offline, \(last.backlogSkips) backlog skips"
        )
        try outcome.check()
        return 0
    }
}
#endif
