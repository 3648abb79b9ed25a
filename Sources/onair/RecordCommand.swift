#if os(Linux)
import Foundation
@_spi(Testing) import OnAir

/// `onair record`: capture from sources, encode once, write every output until the duration
/// passes or Ctrl-C / SIGTERM arrives; files are always finished cleanly.
struct RecordCommand: Command {
    static let name = "record"
    static let summary = "capture, encode and record to files in real time"
    static let help = """
        Usage: onair record [--video SRC] [--audio SRC] [--duration S] [--fast] -o FILE [-o FILE …]
                            [--record-path TEMPLATE …] [encoder flags]

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
                                       while recording (http://127.0.0.1:PORT/NAME.m3u8; 0: a free port,
                                       named in the "serving" line)

        """ + RecordingArguments.help + EncodingOptions.help

    let settings: SessionSettings
    let statsJSON: String?

    init(arguments: inout ArgumentList) throws {
        let capture = try CaptureArguments(arguments: &arguments)
        let fast = arguments.flag("--fast")
        let outputs = try arguments.options("-o", "--output")
        statsJSON = try arguments.option("--stats-json")
        var options = OutputOptions()
        options.faststart = arguments.flag("--faststart")
        if let time = try arguments.option("--hls-time") {
            options.hlsSegmentDuration = .seconds(try EncodingOptions.number(time, "--hls-time"))
        }
        if let size = try arguments.option("--hls-list-size") {
            guard let value = Int(size), value >= 0 else { throw UsageError("--hls-list-size takes a whole number ≥ 0") }
            options.hlsListSize = value
        }
        options.hlsFragmentedMP4 = arguments.flag("--hls-fmp4")
        let servePort = try arguments.option("--serve").map { text in
            guard let port = Int(text), (0...65_535).contains(port) else { throw UsageError("--serve takes a TCP port 0–65535") }
            return port
        }
        let recording = try RecordingArguments.parse(&arguments)
        let encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: true)
        guard arguments.positionals().isEmpty else { throw UsageError("record takes no positional arguments; outputs go with -o") }
        guard !outputs.isEmpty || recording != nil else { throw UsageError("record needs at least one -o FILE or --record-path") }
        if fast {
            guard capture.videoSpec == "synthetic" || capture.videoSpec == "none",
                capture.audioSpec == "synthetic" || capture.audioSpec == "none"
            else {
                throw UsageError("--fast works with the synthetic source only")
            }
            guard capture.duration != nil else { throw UsageError("--fast needs --duration") }
        }
        if capture.videoSpec == "none" && capture.audioSpec == "none" {
            throw UsageError("--video none and --audio none leave nothing to record")
        }
        if servePort != nil && !outputs.contains(where: { OutputRegistry.hlsPlaylist(for: $0) != nil }) {
            throw UsageError("--serve needs an HLS output (-o DIR/NAME.m3u8 or hls:DIR)")
        }
        var settings = try CaptureSourceFactory.settings(capture, encoding: encoding)
        settings.outputs = outputs
        settings.fileOptions = options
        settings.recording = recording
        settings.asFastAsPossible = fast
        settings.hlsServePort = servePort
        // A URL among the outputs (udp://) streams at the fixed bitrate: record does not adapt.
        settings.streaming.adaptiveBitRate = false
        self.settings = settings
    }

    func run() throws -> Int32 {
        let printer = try StatisticsPrinter(label: "rec", jsonPath: statsJSON)
        let outcome = try SessionConsole.run(SessionBuilder(settings), printer: printer) { session in
            if let url = session.hlsServerURL { Console.status("serving \(url)") }
        }
        let last = outcome.statistics
        Console.status(
            "stopped (\(outcome.reason)): \(last.framesOut) video frames, \(last.audioFramesOut) audio frames, \(last.droppedFrames) dropped, peak memory \(outcome.peakResidentBytes / 1_048_576) MB"
        )
        try outcome.check()
        return 0
    }
}
#endif
