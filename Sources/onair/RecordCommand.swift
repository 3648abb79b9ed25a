import Foundation
import OnAir

/// `onair record`: capture from sources, encode once, write every output until the duration
/// passes or Ctrl-C / SIGTERM arrives; files are always finished cleanly.
struct RecordCommand: Command {
    static let name = "record"
    static let summary = "capture, encode and record to files in real time"
    static let help = """
    Usage: onair record [--video SRC] [--audio SRC] [--duration S] [--fast] -o FILE [-o FILE …] [encoder flags]

    Captures video and audio, encodes them once (H.264 + AAC) and writes every output:
    .h264 (Annex-B), .aac (ADTS), .mp4 (fragmented, so a killed process leaves a playable file;
    --faststart for a classic one), .mov, .ts, .flv. Ctrl-C or SIGTERM finish every file.

    \(CaptureSourceFactory.sourcesHelp)
    With neither --video nor --audio, both are synthetic.

      --video SRC, --audio SRC     what to capture
      --duration S                 stop after S seconds of media
      --fast                       synthetic source as fast as the encoders go (media time, no dropping)
      -o, --output FILE            an output (repeatable)
      --faststart                  classic MP4 with the index in front (written at the end)
      --stats-json FILE            the once-a-second statistics as JSON lines
      --hls-time S                 HLS outputs (DIR/NAME.m3u8 or hls:DIR): segment duration (default 2;
                                   keyframes come at least this often)
      --hls-list-size N            HLS: segments in the playlist (default 6; 0 = all)
      --hls-fmp4                   HLS: fragmented-MP4 segments instead of MPEG-TS
      --serve PORT                 HLS: serve the first HLS output's directory over HTTP on 127.0.0.1:PORT
                                   while recording (http://127.0.0.1:PORT/NAME.m3u8)

    """ + EncodingOptions.help

    let videoSpec: String
    let audioSpec: String
    let duration: Double?
    let syntheticAudioPPM: Double
    let fast: Bool
    let outputs: [String]
    let statsJSON: String?
    let containerOptions: SinkFactory.ContainerOptions
    let servePort: Int?
    let encoding: EncodingOptions

    init(arguments: inout ArgumentList) throws {
        let capture = try CaptureArguments(arguments: &arguments)
        videoSpec = capture.videoSpec
        audioSpec = capture.audioSpec
        duration = capture.duration
        syntheticAudioPPM = capture.syntheticAudioPPM
        fast = arguments.flag("--fast")
        outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var options = SinkFactory.ContainerOptions()
        options.faststart = arguments.flag("--faststart")
        if let time = try arguments.option("--hls-time") {
            options.hlsSegmentDuration = try EncodingOptions.number(time, "--hls-time")
        }
        if let size = try arguments.option("--hls-list-size") {
            guard let value = Int(size), value >= 0 else { throw UsageError("--hls-list-size takes a whole number ≥ 0") }
            options.hlsListSize = value
        }
        options.hlsFragmentedMP4 = arguments.flag("--hls-fmp4")
        servePort = try arguments.option("--serve").map { text in
            guard let port = Int(text), (1...65_535).contains(port) else { throw UsageError("--serve takes a TCP port 1–65535") }
            return port
        }
        containerOptions = options
        var encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        encoding.video = SinkFactory.videoSettings(encoding.video, for: outputs, options: options)
        self.encoding = encoding
        guard arguments.positionals().isEmpty else { throw UsageError("record takes no positional arguments; outputs go with -o") }
        guard !outputs.isEmpty else { throw UsageError("record needs at least one -o FILE") }
        if fast {
            guard videoSpec == "synthetic" || videoSpec == "none", audioSpec == "synthetic" || audioSpec == "none" else {
                throw UsageError("--fast works with the synthetic source only")
            }
            guard duration != nil else { throw UsageError("--fast needs --duration") }
        }
        if videoSpec == "none" && audioSpec == "none" { throw UsageError("--video none and --audio none leave nothing to record") }
        if servePort != nil && !outputs.contains(where: { SinkFactory.hlsPlaylist(for: $0) != nil }) {
            throw UsageError("--serve needs an HLS output (-o DIR/NAME.m3u8 or hls:DIR)")
        }
    }

    func run() throws -> Int32 {
        let plan = try CaptureSourceFactory.plan(video: videoSpec, audio: audioSpec, encoding: encoding,
                                                 fast: fast, duration: duration, syntheticAudioPPM: syntheticAudioPPM)
        var configuration = LiveSession.Configuration(video: plan.video, audio: plan.audio)
        configuration.duration = duration
        configuration.dropLateVideo = !fast
        var streams = Set<MediaType>()
        if plan.video != nil { streams.insert(.video) }
        if plan.audio != nil { streams.insert(.audio) }
        // Encoders open (and settings are checked) before any output file is created.
        let encoders = try EncoderFactory.encoders(video: plan.video, audio: plan.audio)
        let sinks = try outputs.map { output in
            try SinkFactory.sink(for: output, streams: streams.intersection(SinkFactory.streams(for: output)),
                                 options: containerOptions)
        }
        let session = try LiveSession(configuration: configuration, sources: plan.sources, sinks: sinks,
                                      videoEncoder: encoders.video, audioEncoder: encoders.audio,
                                      outputFailed: SessionDriver.report, notices: { Console.status($0) })
        var server: HLSFileServer?
        if let servePort, let playlist = outputs.lazy.compactMap(SinkFactory.hlsPlaylist(for:)).first {
            let directory = (playlist as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
            server = try HLSFileServer(directory: directory.isEmpty ? "." : directory, port: servePort)
            Console.status("serving http://127.0.0.1:\(servePort)/\((playlist as NSString).lastPathComponent)")
        }
        defer { server?.stop() }
        let printer = try StatisticsPrinter(label: "rec", jsonPath: statsJSON)
        let outcome = try SessionDriver.run(session, printer: printer, outputs: outputs)
        let last = outcome.statistics
        let stopReason = outcome.reason
        Console.status("stopped (\(stopReason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped, peak memory \(ResidentMemory.peak() / 1_048_576) MB")
        return try outcome.finish()
    }
}
