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
      srt://host:port?mode=caller|listener&latency=US&passphrase=P&streamid=ID
                                                       MPEG-TS over SRT (latency in microseconds;
                                                       passphrase 10–79 characters)
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
      --stats-json FILE            the once-a-second statistics as JSON lines

    """ + EncodingOptions.help

    let videoSpec: String
    let audioSpec: String
    let duration: Double?
    let targets: [StreamTarget]
    let outputs: [String]
    let statsJSON: String?
    let policy: ReconnectPolicy
    let encoding: EncodingOptions

    init(arguments: inout ArgumentList) throws {
        let video = try arguments.option("--video")
        let audio = try arguments.option("--audio")
        if video == nil && audio == nil {
            videoSpec = "synthetic"
            audioSpec = "synthetic"
        } else {
            videoSpec = video ?? "none"
            audioSpec = audio ?? "none"
        }
        duration = try arguments.option("--duration").map { try EncodingOptions.number($0, "--duration") }
        if let duration, duration <= 0 { throw UsageError("--duration must be positive") }
        outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var policy = ReconnectPolicy()
        if let value = try arguments.option("--send-timeout") { policy.sendTimeout = try Self.seconds(value, "--send-timeout") }
        if let value = try arguments.option("--connect-timeout") { policy.connectTimeout = try Self.seconds(value, "--connect-timeout") }
        if let value = try arguments.option("--reconnect-max") {
            policy.maximumDelay = max(try Self.seconds(value, "--reconnect-max"), policy.initialDelay)
        }
        self.policy = policy
        encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        let urls = arguments.positionals()
        guard !urls.isEmpty else { throw UsageError("stream needs at least one URL") }
        targets = try urls.map { url in
            guard StreamTarget.isURL(url) else { throw UsageError("'\(url)' is not a URL; files go with -o") }
            return try StreamTarget(parsing: url)
        }
        if videoSpec == "none" && audioSpec == "none" { throw UsageError("--video none and --audio none leave nothing to stream") }
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
                                                 fast: false, duration: duration)
        var configuration = LiveSession.Configuration(video: plan.video, audio: plan.audio)
        configuration.duration = duration
        var streams = Set<MediaType>()
        if plan.video != nil { streams.insert(.video) }
        if plan.audio != nil { streams.insert(.audio) }
        let encoders = try EncoderFactory.encoders(video: plan.video, audio: plan.audio)
        let files = try outputs.map { output in
            try SinkFactory.sink(for: output, streams: streams.intersection(SinkFactory.streams(for: output)))
        }
        let network = targets.map { target in
            NetworkSink(target: target, streams: streams, policy: policy) { event in
                Console.status(Self.describe(event, target: target))
            }
        }
        let session = try LiveSession(configuration: configuration, sources: plan.sources, sinks: files,
                                      networkSinks: network, videoEncoder: encoders.video, audioEncoder: encoders.audio)
        let printer = try StatisticsPrinter(label: "live", jsonPath: statsJSON, network: true)
        let signals = SignalWatcher()
        do {
            try session.start()
        } catch {
            for output in outputs { try? FileManager.default.removeItem(atPath: output) }
            throw error
        }
        if let summary = session.videoEncoderSummary { Console.status("video: \(summary)") }
        for target in targets where target.isListener { Console.status("\(target.displayName): waiting for the receiver to connect") }
        var stopReason = "duration reached"
        while true {
            if session.waitForSources(timeout: 1) { break }
            printer.show(session.statistics())
            if let signal = signals.received {
                stopReason = signal == SIGINT ? "interrupted" : "terminated"
                break
            }
            if session.error != nil {
                stopReason = "error"
                break
            }
        }
        let stopError: (any Error)?
        do { try session.stop(); stopError = nil } catch { stopError = error }
        let last = session.statistics()
        printer.show(last)
        printer.end()
        if let stopError { throw stopError }
        Console.status("stopped (\(stopReason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped, \(last.reconnects) reconnects, \(String(format: "%.1f", last.offlineSeconds)) s offline")
        return 0
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
