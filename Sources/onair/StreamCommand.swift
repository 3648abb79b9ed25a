import Foundation
import OnAir

/// `onair stream`: capture, encode once, send to every network destination (and record any files)
/// until the duration passes or Ctrl-C / SIGTERM arrives; dropped connections are re-made.
struct StreamCommand: Command {
    static let name = "stream"
    static let summary = "capture, encode and stream (RTMP, SRT, UDP, TCP) in real time"
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
                                                       snddropdelay, sndbuf, rcvbuf)
      udp://host:port?pkt_size=1316                    MPEG-TS over UDP
      tcp://host:port[?listen=1]                       MPEG-TS over TCP (listen=1: the receiver connects)
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
      --ca-file FILE               rtmps: trust the certificate authorities in this PEM file
                                   instead of the system's
      --no-tls-verify              rtmps: do not check the server's certificate (testing only)
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
    UDP gives no feedback: over udp:// the bitrate stays fixed and nothing is cut.

    """ + EncodingOptions.help

    let videoSpec: String
    let audioSpec: String
    let duration: Double?
    let syntheticAudioPPM: Double
    let targets: [StreamTarget]
    let outputs: [String]
    let statsJSON: String?
    let policy: ReconnectPolicy
    let encoding: EncodingOptions
    let adaptive: Bool
    let minimumBitRate: Int?
    let maximumBitRate: Int?
    let maximumBacklog: Double?

    init(arguments: inout ArgumentList) throws {
        let capture = try CaptureArguments(arguments: &arguments)
        videoSpec = capture.videoSpec
        audioSpec = capture.audioSpec
        duration = capture.duration
        syntheticAudioPPM = capture.syntheticAudioPPM
        outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var policy = ReconnectPolicy()
        if let value = try arguments.option("--send-timeout") { policy.sendTimeout = try Self.seconds(value, "--send-timeout") }
        if let value = try arguments.option("--connect-timeout") { policy.connectTimeout = try Self.seconds(value, "--connect-timeout") }
        if let value = try arguments.option("--reconnect-max") {
            policy.maximumDelay = max(try Self.seconds(value, "--reconnect-max"), policy.initialDelay)
        }
        self.policy = policy
        adaptive = !arguments.flag("--no-adaptive")
        if let value = try arguments.option("--max-backlog") {
            let seconds = try EncodingOptions.number(value, "--max-backlog")
            guard seconds >= 0 else { throw UsageError("--max-backlog must be 0 or more") }
            maximumBacklog = seconds > 0 ? seconds : nil
        } else {
            maximumBacklog = LiveSession.Configuration(video: nil, audio: nil).maximumNetworkBacklog
        }
        minimumBitRate = try arguments.option("--min-bitrate").map { try EncodingOptions.rate($0, "--min-bitrate") }
        maximumBitRate = try arguments.option("--max-bitrate").map { try EncodingOptions.rate($0, "--max-bitrate") }
        for case let rate? in [minimumBitRate, maximumBitRate] where rate <= 0 {
            throw UsageError("--min-bitrate and --max-bitrate must be positive")
        }
        if let minimumBitRate, let maximumBitRate, minimumBitRate > maximumBitRate {
            throw UsageError("--min-bitrate must not exceed --max-bitrate")
        }
        encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        let tls = StreamTarget.TLSOptions(verify: !arguments.flag("--no-tls-verify"), caFile: try arguments.option("--ca-file"))
        if let caFile = tls.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw UsageError("--ca-file \(caFile): no such readable file")
        }
        let urls = arguments.positionals()
        guard !urls.isEmpty else { throw UsageError("stream needs at least one URL") }
        targets = try urls.map { url in
            guard StreamTarget.isURL(url) else { throw UsageError("'\(url)' is not a URL; files go with -o") }
            var target = try StreamTarget(parsing: url)
            target.tls = tls
            return target
        }
        if videoSpec == "none" && audioSpec == "none" { throw UsageError("--video none and --audio none leave nothing to stream") }
    }

    /// The adaptive bitrate bounds from the flags: up to --max-bitrate (default --bitrate), down to
    /// --min-bitrate (default a tenth of the maximum, at least 100 kb/s).
    private func adaptiveSettings(video: VideoEncoderSettings, audio: AudioEncoderSettings?) -> AdaptiveBitrateSettings {
        let maximum = maximumBitRate ?? max(video.averageBitRate, minimumBitRate ?? 0)
        let minimum = minimumBitRate ?? min(maximum, max(100_000, maximum / 10))
        return AdaptiveBitrateSettings(minimumBitRate: minimum, maximumBitRate: maximum,
                                       initialBitRate: video.averageBitRate, audioBitRate: audio?.bitRate ?? 0)
    }

    private static func seconds(_ text: String, _ flag: String) throws -> Double {
        let value = try EncodingOptions.number(text, flag)
        guard value > 0 else { throw UsageError("\(flag) must be positive") }
        return value
    }

    func run() throws -> Int32 {
        // A peer that closes its socket must give a send error, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let plan = try CaptureSourceFactory.plan(video: videoSpec, audio: audioSpec, encoding: encoding,
                                                 fast: false, duration: duration, syntheticAudioPPM: syntheticAudioPPM)
        var configuration = LiveSession.Configuration(video: plan.video, audio: plan.audio)
        configuration.duration = duration
        configuration.maximumNetworkBacklog = maximumBacklog
        if adaptive, let video = plan.video {
            configuration.adaptiveBitRate = adaptiveSettings(video: video, audio: plan.audio)
        }
        // Bounded whether or not the bitrate adapts: a backlog hidden in the kernel's buffer would
        // escape both adaptive bitrate and --max-backlog.
        let sendBuffer = configuration.openingVideo.map {
            NetworkSink.sendBufferBytes(streamBitRate: $0.averageBitRate + (plan.audio?.bitRate ?? 0))
        }
        var streams = Set<MediaType>()
        if plan.video != nil { streams.insert(.video) }
        if plan.audio != nil { streams.insert(.audio) }
        let encoders = try EncoderFactory.encoders(video: configuration.openingVideo, audio: plan.audio)
        let files = try outputs.map { output in
            try SinkFactory.sink(for: output, streams: streams.intersection(SinkFactory.streams(for: output)))
        }
        let network = targets.map { target in
            NetworkSink(target: target, streams: streams, policy: policy, sendBufferBytes: sendBuffer) { event in
                Console.status(Self.describe(event, target: target))
            }
        }
        let session = try LiveSession(configuration: configuration, sources: plan.sources, sinks: files,
                                      networkSinks: network, videoEncoder: encoders.video, audioEncoder: encoders.audio,
                                      bitRateDecisions: { Console.status($0.summary) },
                                      outputFailed: SessionDriver.report, notices: { Console.status($0) })
        let printer = try StatisticsPrinter(label: "live", jsonPath: statsJSON, network: true)
        let outcome = try SessionDriver.run(session, printer: printer, outputs: outputs) {
            for target in targets where target.isListener { Console.status("\(target.displayName): waiting for the receiver to connect") }
        }
        let last = outcome.statistics
        let stopReason = outcome.reason
        Console.status("stopped (\(stopReason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped, \(last.reconnects) reconnects, \(String(format: "%.1f", last.offlineSeconds)) s offline, \(last.backlogSkips) backlog skips")
        return try outcome.finish()
    }

    private static func describe(_ event: NetworkSink.Event, target: StreamTarget) -> String {
        switch event {
        case .connected(let reconnect):
            return "\(target.displayName): \(reconnect ? "reconnected" : "connected")"
        case let .lost(reason, retryIn):
            return "\(target.displayName): connection lost (\(reason)); reconnecting in \(retryIn) s"
        case let .attemptFailed(reason, retryIn):
            return "\(target.displayName): connect failed (\(reason)); next attempt in \(retryIn) s"
        case let .finishFailed(reason):
            return "\(target.displayName): could not finish the stream cleanly (\(reason))"
        }
    }
}
