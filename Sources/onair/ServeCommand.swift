import Foundation
import OnAir

/// `onair serve`: capture and encode once, serve the live stream to many viewers over HTTP
/// (MPEG-TS, fragmented MP4, HLS) and record any files from the same encode.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "capture, encode once and serve live to many viewers (HTTP: TS, fMP4, HLS)"
    static let help = """
    Usage: onair serve [--video SRC] [--audio SRC] [--listen ADDR:PORT] [--max-viewers N] [--token T]
                       [--srt-port N] [--rtsp-port N] [--viewer-timeout S] [--duration S] [-o FILE …] [encoder flags]

    Captures video and audio, encodes them once (H.264 + AAC, no B-frames) and serves them to every
    viewer that connects, while also recording any -o files from the same encode:
      http://ADDR:PORT/live.ts      MPEG-TS, one continuous response (ffplay, VLC, mpv, ffmpeg, onair play)
      http://ADDR:PORT/live.mp4     fragmented MP4: init segment, then one fragment per video frame
      http://ADDR:PORT/live.m3u8    HLS (MPEG-TS segments starting on keyframes)
      http://ADDR:PORT/stats.json   encoder figures and one entry per viewer
      http://ADDR:PORT/             the browser preview: the stream played in the page, live plots
    A viewer that joins gets the last keyframe and what followed at once. Each viewer has its own
    bounded queue: one that cannot keep up skips to the next keyframe (counted) and is cut after
    --viewer-timeout seconds behind; no viewer slows the encoder, another viewer or a recording.

    \(CaptureSourceFactory.sourcesHelp)
    With neither --video nor --audio, both are synthetic.

      --video SRC, --audio SRC     what to capture
      --duration S                 stop after S seconds of media
      --listen ADDR:PORT           where to listen (default 127.0.0.1:8080; a bare PORT stays on
                                   127.0.0.1; 0.0.0.0:PORT opens it to the network)
      --max-viewers N              viewers at once (default 32); more get 503
      --token T                    every request needs ?token=T (401 without, 403 wrong); SRT
                                   callers need T as passphrase (then 10–79 characters)
      --srt-port N                 also accept SRT callers on UDP port N (MPEG-TS, many at once:
                                   srt://ADDR:N?mode=caller; per-caller RTT, loss, send buffer in
                                   /stats.json)
      --rtsp-port N                also serve rtsp://ADDR:N/live (H.264 + AAC over RTP, UDP or TCP as the
                                   client asks; with --token: user onair, password T; beyond
                                   --max-viewers: 503)
      --webrtc                     also serve WHEP viewers at ADDR:PORT/whep (WebRTC: H.264 + Opus;
                                   with --token as Bearer token; the encode is Constrained Baseline
                                   unless --profile says otherwise)
      --webrtc-ports MIN-MAX       UDP ports for WebRTC viewers (default: any)
      --webrtc-advertise ADDR      also offer ADDR as candidate (a public address forwarded to this host)
      --viewer-timeout S           cut a viewer this many seconds behind (default 5)
      --viewer-queue BYTES         bytes waiting for one viewer before it skips to a keyframe
                                   (default 4 s of the stream, at least 1 MiB)
      --hls-time S                 HLS segment duration (default 2; keyframes come at least this often)
      -o, --output FILE            also record to a file (repeatable)
      --stats-json FILE            the once-a-second statistics as JSON lines

    """ + EncodingOptions.help

    let videoSpec: String
    let audioSpec: String
    let duration: Double?
    let syntheticAudioPPM: Double
    let outputs: [String]
    let statsJSON: String?
    let configuration: ServeConfiguration
    let queueBytes: Int?
    let hlsTime: Double
    let encoding: EncodingOptions

    init(arguments: inout ArgumentList) throws {
        let capture = try CaptureArguments(arguments: &arguments)
        videoSpec = capture.videoSpec
        audioSpec = capture.audioSpec
        duration = capture.duration
        syntheticAudioPPM = capture.syntheticAudioPPM
        outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var configuration = ServeConfiguration()
        if let listen = try arguments.option("--listen") {
            try configuration.listen(on: listen)
        }
        if let text = try arguments.option("--max-viewers") {
            guard let value = Int(text), (1...10_000).contains(value) else { throw UsageError("--max-viewers takes a whole number 1–10000") }
            configuration.limits.maxViewers = value
        }
        if let token = try arguments.option("--token") {
            guard !token.isEmpty, token.count <= 256 else { throw UsageError("--token must be 1–256 characters") }
            configuration.token = token
        }
        if let text = try arguments.option("--viewer-timeout") {
            let value = try EncodingOptions.number(text, "--viewer-timeout")
            guard value > 0 else { throw UsageError("--viewer-timeout must be positive") }
            configuration.limits.viewerTimeout = value
        }
        queueBytes = try arguments.option("--viewer-queue").map { text in
            guard let value = Int(text), value >= 64 * 1024 else { throw UsageError("--viewer-queue takes bytes, at least 65536") }
            return value
        }
        if let text = try arguments.option("--srt-port") {
            guard let value = Int(text), (1...65_535).contains(value) else { throw UsageError("--srt-port takes a UDP port 1–65535") }
            configuration.srtPort = value
        }
        if let text = try arguments.option("--rtsp-port") {
            guard let value = Int(text), (0...65_535).contains(value) else { throw UsageError("--rtsp-port takes a TCP port 0–65535") }
            configuration.rtspPort = value
        }
        configuration.webRTC = try Self.webRTC(&arguments)
        let profileGiven = arguments.contains("--profile")
        hlsTime = try arguments.option("--hls-time").map { try EncodingOptions.number($0, "--hls-time") } ?? 2
        guard hlsTime > 0 else { throw UsageError("--hls-time must be positive") }
        self.configuration = configuration
        var encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        encoding.video = ServeOutputs.videoSettings(encoding.video, hlsSegmentDuration: hlsTime)
        if configuration.webRTC != nil && !profileGiven { encoding.video.profileLevel.profile = .baseline }
        self.encoding = encoding
        guard arguments.positionals().isEmpty else { throw UsageError("serve takes no positional arguments; files go with -o") }
        if videoSpec == "none" && audioSpec == "none" { throw UsageError("--video none and --audio none leave nothing to serve") }
    }

    func run() throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let plan = try CaptureSourceFactory.plan(video: videoSpec, audio: audioSpec, encoding: encoding,
                                                 fast: false, duration: duration, syntheticAudioPPM: syntheticAudioPPM)
        var sessionConfiguration = LiveSession.Configuration(video: plan.video, audio: plan.audio)
        sessionConfiguration.duration = duration
        var streams = Set<MediaType>()
        if plan.video != nil { streams.insert(.video) }
        if plan.audio != nil { streams.insert(.audio) }
        let encoders = try EncoderFactory.encoders(video: plan.video, audio: plan.audio)
        let serve = try ServeOutputs(configuration: configuration, streams: streams,
                                     streamBitRate: (plan.video?.averageBitRate ?? 0) + (plan.audio?.bitRate ?? 0),
                                     hlsSegmentDuration: hlsTime, explicitQueueBytes: queueBytes,
                                     profile: plan.video?.profileLevel.profile ?? .baseline)
        defer { serve.stop() }
        let files = try outputs.map { output in
            try SinkFactory.sink(for: output, streams: streams.intersection(SinkFactory.streams(for: output)))
        }
        let session = try LiveSession(configuration: sessionConfiguration, sources: plan.sources, sinks: files + serve.sinks,
                                      videoEncoder: encoders.video,
                                      audioEncoder: encoders.audio.map { serve.webRTC?.audioTap(wrapping: $0) ?? $0 })
        serve.webRTC?.setKeyFrameRequester { [weak session] in session?.forceKeyFrame() }
        let printer = try StatisticsPrinter(label: "serve", jsonPath: statsJSON)
        let latest = LatestStatistics()
        serve.server.setEncoderStatistics { latest.value }
        let outcome = try SessionDriver.run(session, printer: printer, outputs: outputs, afterStart: {
            let base = configuration.baseURL(port: serve.server.port)
            let query = configuration.token.map { "?token=\($0)" } ?? ""
            Console.status("serving \(base)/live.ts\(query), \(base)/live.mp4\(query), \(base)/live.m3u8\(query) (page: \(base)/\(query))")
            if let srt = serve.srt {
                let host = configuration.isLoopback ? configuration.host : "ADDR"
                Console.status("SRT callers: srt://\(host):\(srt.port)?mode=caller\(configuration.token == nil ? "" : "&passphrase=…")")
            }
            if let rtsp = serve.rtsp { Console.status("RTSP: rtsp://\(configuration.isLoopback ? configuration.host : "ADDR"):\(rtsp.port)/live\(configuration.token == nil ? "" : " (user \(ServeRTSPFace.user), the token as password)")") }
            if serve.webRTC != nil { Console.status("WHEP: \(base)/whep\(configuration.token == nil ? "" : " (Authorization: Bearer …)")") }
            if !configuration.isLoopback { Console.status("listening on \(configuration.host): reachable from the network") }
        }, everySecond: { latest.value = $0 })
        let totals = serve.hub.statistics().totals
        let last = outcome.statistics
        Console.status("stopped (\(outcome.reason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped; viewers served \(totals.served), refused \(totals.refusedFull), cut as too slow \(totals.cutTooSlow)")
        return 0
    }
}

extension ServeCommand {
    /// The WebRTC flags: nil without --webrtc.
    static func webRTC(_ arguments: inout ArgumentList) throws -> WebRTCConfiguration? {
        let ports = try arguments.option("--webrtc-ports")
        let advertised = try arguments.option("--webrtc-advertise")
        guard arguments.flag("--webrtc") else {
            if ports != nil || advertised != nil { throw UsageError("--webrtc-ports and --webrtc-advertise go with --webrtc") }
            return nil
        }
        var webRTC = WebRTCConfiguration()
        if let ports {
            let bounds = ports.split(separator: "-").compactMap { Int($0) }
            guard bounds.count == 2, bounds[0] >= 1024, bounds[0] <= bounds[1], bounds[1] <= 65_535 else {
                throw UsageError("--webrtc-ports takes MIN-MAX, UDP ports 1024–65535")
            }
            webRTC.ports = bounds[0]...bounds[1]
        }
        webRTC.advertisedAddress = advertised
        return webRTC
    }
}

/// The session's latest statistics, shared with the HTTP threads.
final class LatestStatistics: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: LiveStatistics?

    var value: LiveStatistics? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}
