#if os(Linux)
import Foundation
import OnAir

/// `onair serve`: capture and encode once, serve the live stream to many viewers over HTTP
/// (MPEG-TS, fragmented MP4, HLS) and record any files from the same encode.
struct ServeCommand: Command {
    static let name = "serve"
    static let summary = "capture, encode once and serve live to many viewers (HTTP: TS, fMP4, HLS)"
    static let help = """
        Usage: onair serve [--video SRC] [--audio SRC] [--listen ADDR:PORT] [--max-viewers N] [--token T]
                           [--srt-port N] [--rtsp-port N] [--rtsps-port N] [--viewer-timeout S] [--duration S] [-o FILE …]
                           [--sub-size WxH [--sub-fps N] [--sub-bitrate R]] [--record-path TEMPLATE …] [encoder flags]

        Captures video and audio, encodes them once (H.264 or H.265 + AAC, no B-frames) and serves them to every
        viewer that connects, while also recording any -o files from the same encode:
          http://ADDR:PORT/live.ts      MPEG-TS, one continuous response (ffplay, VLC, mpv, ffmpeg, onair play)
          http://ADDR:PORT/live.mp4     fragmented MP4: init segment, then one fragment per video frame
          http://ADDR:PORT/live.m3u8    HLS (segments starting on keyframes: MPEG-TS, fMP4 for H.265)
          http://ADDR:PORT/index.m3u8   HLS multivariant playlist: main and sub with CODECS, RESOLUTION
          http://ADDR:PORT/stats.json   encoder figures and one entry per viewer
          http://ADDR:PORT/snapshot.jpg the latest keyframe as a JPEG (at most one encode a second)
          http://ADDR:PORT/list, /get   with --record-path: the recording by time (MediaMTX's playback API)
          http://ADDR:PORT/             the browser preview: the stream played in the page, live plots
        A viewer that joins gets the last keyframe and what followed at once. Each viewer has its own
        bounded queue: one that cannot keep up skips to the next keyframe (counted) and is cut after
        --viewer-timeout seconds behind; no viewer slows the encoder, another viewer or a recording.

        \(CaptureSourceFactory.sourcesHelp)
        With neither --video nor --audio, both are synthetic.

          --video SRC, --audio SRC     what to capture
          --duration S                 stop after S seconds of media
          --listen ADDR:PORT           where to listen (default 127.0.0.1:8080; a bare PORT stays on
                                       127.0.0.1; 0.0.0.0:PORT opens it to the network; port 0 picks a
                                       free port, named in the "serving" line)
          --max-viewers N              viewers at once (default 32); more get 503
          --token T                    every request needs T (Bearer, or ?token=T; 401 without or
                                       wrong); repeatable: any one opens, a reload rotates them. SRT
                                       callers need the last as passphrase (then 10–79 characters)
          --srt-port N                 also accept SRT callers on UDP port N (MPEG-TS, many at once:
                                       srt://ADDR:N?mode=caller; per-caller RTT, loss, send buffer in
                                       /stats.json; 0 picks a free port, named in the "SRT callers" line)
          --rtsp-port N                also serve rtsp://ADDR:N/live (H.264/H.265 + AAC over RTP, UDP or TCP as the
                                       client asks; with --token: user onair, password T (any); beyond
                                       --max-viewers: 503; 0 picks a free port, named in the "RTSP" line)
          --rtsps-port N               with TLS: also serve rtsps://ADDR:N/live, the media inside the TLS
                                       connection (RTP interleaved over TCP); users of the config file
                                       log in there with Basic (plain RTSP: on loopback only)
          --rtsp-plain MODE            with TLS, where plain --rtsp-port listens: loopback (default), on
                                       (the listen address too) or off
          --webrtc                     also serve WHEP viewers at ADDR:PORT/whep (WebRTC: H.264 + Opus;
                                       with --token as Bearer token; the encode is Constrained Baseline
                                       unless --profile says otherwise); an H.265 stream's WHEP
                                       plays the H.264 sub stream, or answers 415 without one
          --webrtc-ports MIN-MAX       UDP ports for WebRTC viewers (default: any)
          --webrtc-advertise ADDR      also offer ADDR as candidate (a public address forwarded to this host)
          --tls-cert FILE --tls-key FILE  HTTPS only on the HTTP port (page, streams, HLS, stats, WHEP):
                                       the certificate (PEM, intermediates after it) and its key; TLS 1.2/1.3
          --tls-self-signed            HTTPS with an ECDSA P-256 key and self-signed certificate made at the
                                       first start in $STATE_DIRECTORY, else $XDG_STATE_HOME/onair, else
                                       ~/.local/state/onair (its SHA-256 fingerprint is printed: pin it)
          --redirect-listen ADDR:PORT  with TLS: plain HTTP here answers every request with a redirect
                                       (308) to the same path over HTTPS, and serves nothing else
          --viewer-timeout S           cut a viewer this many seconds behind (default 5)
          --viewer-queue BYTES         bytes waiting for one viewer before it skips to a keyframe
                                       (default 4 s of the stream, at least 1 MiB)
          --hls-time S                 HLS segment duration (default 2; keyframes come at least this often)
          --hls-variant V              mpegts (default; H.265 is fMP4 anyway), fmp4, or lowlatency: fMP4 with
                                       Low-Latency HLS (parts, preload hints, blocking reload, delta updates)
          --hls-part-duration S        lowlatency: part duration (default 0.2; parts end where packets allow)
          -o, --output FILE            also record to a file (repeatable)
          --stats-json FILE            the once-a-second statistics as JSON lines

        """ + subStreamHelp + onvifHelp + motionHelp + RecordingArguments.help + EncodingOptions.help + "\n" + configHelp

    let settings: SessionSettings
    let statsJSON: String?
    /// The effective configuration when `--print-config` asked for it (printed instead of serving).
    var printedConfig: String?
    /// The arguments as given (a reload parses them again with the file re-read) and their resolution.
    let originalArguments: [String]
    let resolution: ServeConfigResolution

    init(arguments: inout ArgumentList) throws {
        originalArguments = arguments.remaining
        let config = try Self.configuration(&arguments)
        resolution = config.resolution
        let capture = try CaptureArguments(arguments: &arguments)
        let outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var configuration = ServeConfiguration()
        try configuration.apply(config.resolution)
        if let listen = try arguments.option("--listen") {
            try configuration.listen(on: listen)
        }
        if let redirect = try arguments.option("--redirect-listen") {
            configuration.redirectListen = redirect
        }
        if let text = try arguments.option("--max-viewers") {
            guard let value = Int(text), (1...10_000).contains(value) else {
                throw UsageError("--max-viewers takes a whole number 1–10000")
            }
            configuration.limits.maxViewers = value
        }
        let tokens = try arguments.options("--token")
        if !tokens.isEmpty {
            guard tokens.allSatisfy({ !$0.isEmpty && $0.count <= 256 }) else { throw UsageError("--token must be 1–256 characters") }
            configuration.tokens = tokens
        }
        if let text = try arguments.option("--viewer-timeout") {
            let value = try EncodingOptions.number(text, "--viewer-timeout")
            guard value > 0 else { throw UsageError("--viewer-timeout must be positive") }
            configuration.limits.viewerTimeout = .seconds(value)
        }
        var serving = ServingSettings()
        serving.viewerQueueBytes = try arguments.option("--viewer-queue").map { text in
            guard let value = Int(text), value >= 64 * 1024 else { throw UsageError("--viewer-queue takes bytes, at least 65536") }
            return value
        }
        if let text = try arguments.option("--srt-port") {
            guard let value = Int(text), (0...65_535).contains(value) else { throw UsageError("--srt-port takes a UDP port 0–65535") }
            configuration.srtPort = value
        }
        if let text = try arguments.option("--rtsp-port") {
            guard let value = Int(text), (0...65_535).contains(value) else { throw UsageError("--rtsp-port takes a TCP port 0–65535") }
            configuration.rtspPort = value
        }
        if let text = try arguments.option("--rtsps-port") {
            guard let value = Int(text), (0...65_535).contains(value) else { throw UsageError("--rtsps-port takes a TCP port 0–65535") }
            configuration.rtspsPort = value
        }
        if let text = try arguments.option("--rtsp-plain") {
            guard let value = ServeConfiguration.RTSPPlain(rawValue: text) else {
                throw UsageError("--rtsp-plain takes on, loopback or off")
            }
            configuration.rtspPlain = value
        }
        configuration.webRTC = try Self.webRTC(&arguments)
        configuration.tls = try Self.tls(&arguments)
        configuration.onvif = try Self.onvif(&arguments)
        let motion = try Self.motion(&arguments)
        let recording = try RecordingArguments.parse(&arguments)
        let renditions = try Self.subStream(&arguments)
        let profileGiven = arguments.contains("--profile")
        serving.hlsSegmentDuration = .seconds(try arguments.option("--hls-time").map { try EncodingOptions.number($0, "--hls-time") } ?? 2)
        guard serving.hlsSegmentDuration > .zero else { throw UsageError("--hls-time must be positive") }
        if let text = try arguments.option("--hls-variant") {
            guard let variant = HLSVariant(rawValue: text) else { throw UsageError("--hls-variant takes mpegts, fmp4 or lowlatency") }
            serving.hlsVariant = variant
        }
        if let text = try arguments.option("--hls-part-duration") {
            let seconds = try EncodingOptions.number(text, "--hls-part-duration")
            guard seconds >= 0.05, seconds <= serving.hlsSegmentDuration / .seconds(1) else {
                throw UsageError("--hls-part-duration takes 0.05 s up to the segment duration (--hls-time)")
            }
            serving.hlsPartDuration = .seconds(seconds)
        }
        serving.server = configuration
        var encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        // Every WebRTC client decodes Constrained Baseline: with --webrtc it is the default.
        if configuration.webRTC != nil && !profileGiven { encoding.video.profileLevel.profile = .baseline }
        guard arguments.positionals().isEmpty else { throw UsageError("serve takes no positional arguments; files go with -o") }
        if capture.videoSpec == "none" && capture.audioSpec == "none" {
            throw UsageError("--video none and --audio none leave nothing to serve")
        }
        var settings = try CaptureSourceFactory.settings(capture, encoding: encoding)
        settings.outputs = outputs
        settings.serving = serving
        settings.recording = recording
        settings.motion = motion
        settings.renditions = renditions
        settings.streaming.adaptiveBitRate = false
        self.settings = settings
        printedConfig = config.print ? config.resolution.printed() : nil
    }

    func run() throws -> Int32 {
        if let printedConfig {
            print(printedConfig, terminator: "")
            return 0
        }
        signal(SIGPIPE, SIG_IGN)
        HangUpSignal.install()  // a reload (below), never a stop
        let printer = try StatisticsPrinter(label: "serve", jsonPath: statsJSON)
        let reloads = ReloadWatch()
        defer { reloads.cancel() }
        let outcome = try SessionConsole.run(SessionBuilder(settings), printer: printer) { session in
            reloads.start(self, session)
            guard let served = session.servedEndpoints else { return }
            let urls = served.streamURLs
            // The token is a secret: the status line (which may go to a journal) shows where it goes, not what it is.
            let shown = { (url: String) in served.query.isEmpty ? url : url.replacingOccurrences(of: served.query, with: "?token=…") }
            Console.status("serving \(shown(urls.mpegTS)), \(shown(urls.fragmentedMP4)), \(shown(urls.hls)) (page: \(shown(urls.page)))")
            if let port = served.srtPort {
                let host = served.isLoopback ? served.host : "ADDR"
                Console.status("SRT callers: srt://\(host):\(port)?mode=caller\(served.hasToken ? "&passphrase=…" : "")")
            }
            for name in served.renditions {
                let url = shown("\(served.baseURL)/\(name).ts\(served.query)")
                Console.status("sub stream: \(url) (also .mp4, .m3u8, /\(name)/snapshot.jpg)")
            }
            if let port = served.rtspPort {
                let host = served.rtspHost ?? (served.isLoopback ? served.host : "ADDR")
                let paths = (["live"] + served.renditions).map { "rtsp://\(host):\(port)/\($0)" }.joined(separator: ", ")
                Console.status("RTSP: \(paths)\(served.hasToken ? " (user \(served.rtspUser), the token as password)" : "")")
            }
            if let port = served.rtspsPort {
                let host = served.isLoopback ? served.host : "ADDR"
                Console.status(
                    "RTSPS: rtsps://\(host):\(port)/live (media inside TLS)\(served.hasToken ? " (user \(served.rtspUser), the token as password)" : "")"
                )
            }
            if let fingerprint = served.tlsFingerprint {
                if let made = served.tlsCertificateMade { Console.status("made a self-signed certificate: \(made)") }
                Console.status("TLS certificate SHA-256 fingerprint: \(fingerprint)")
                if let port = served.redirectPort { Console.status("plain HTTP on port \(port) redirects to HTTPS") }
                if let reload = served.reloadCertificate { Self.reloadOnHangUp(reload) }
            }
            if let whep = served.whepURL { Console.status("WHEP: \(whep)\(served.hasToken ? " (Authorization: Bearer …)" : "")") }
            if !served.isLoopback { Console.status("listening on \(served.host): reachable from the network") }
        }
        let totals = outcome.viewers
        let last = outcome.statistics
        Console.status(
            "stopped (\(outcome.reason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped; viewers served \(totals?.served ?? 0), refused \(totals?.refusedFull ?? 0), cut as too slow \(totals?.cutTooSlow ?? 0), cut at a token's removal \(totals?.cutCredentialWithdrawn ?? 0)"
        )
        try outcome.check()
        return 0
    }
}
#endif
