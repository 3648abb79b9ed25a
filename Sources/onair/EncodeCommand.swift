#if os(Linux)
import Foundation
import OnAir

/// `onair encode INPUT -o OUTPUT…`: decode any file and re-encode it with OnAir's encoders.
struct EncodeCommand: Command {
    static let name = "encode"
    static let summary = "re-encode a file to H.264/AAC as fast as possible"
    static let help = """
        Usage: onair encode INPUT -o OUTPUT [-o OUTPUT …] [encoder flags]

        Decodes any file FFmpeg reads and encodes it once with OnAir's H.264 and AAC encoders,
        writing every output from that one encode. The output type follows the extension:
        .h264/.264 (Annex-B, SPS/PPS before every IDR), .aac (ADTS), .mp4, .mov, .ts, .flv.
        A progress line is printed on stderr.

          -o, --output FILE            an output (repeatable)
          --faststart                  write MP4 with the index in front (default: fragmented MP4)

        """ + EncodingOptions.help

    let input: String
    let outputs: [String]
    let encoding: EncodingOptions
    let containerOptions: OutputOptions

    init(arguments: inout ArgumentList) throws {
        outputs = try arguments.options("-o", "--output")
        var options = OutputOptions()
        options.faststart = arguments.flag("--faststart")
        containerOptions = options
        encoding = try EncodingOptions(arguments: &arguments, realTimeDefault: false)
        let inputs = arguments.positionals()
        guard inputs.count == 1 else { throw UsageError("encode takes exactly one INPUT") }
        guard !outputs.isEmpty else { throw UsageError("encode needs at least one -o OUTPUT") }
        input = inputs[0]
    }

    func run() throws -> Int32 {
        // Settings are checked (against the input's size and rates where they follow it) when the
        // transcoder opens, before any output file is created.
        let transcoder = try FileTranscoder(
            input: input, outputs: outputs, options: containerOptions,
            video: encoding.videoEnabled ? encoding.video : nil,
            audio: encoding.audioEnabled ? encoding.audio : nil,
            followInput: .init(
                size: !encoding.explicitSize, frameRate: !encoding.explicitFrameRate,
                sampleRate: !encoding.explicitAudioRate, channels: !encoding.explicitChannels),
            forceKeyFrameTimes: encoding.forceKeyFrameTimes)
        if let choice = transcoder.encoderChoice {
            Console.status("video: \(choice)")
        }
        let progress = ProgressLine()
        var final = FileTranscoder.Progress()
        var failedOutputs: OutputsFailedError?
        do {
            try transcoder.run(
                outputs: outputs, options: containerOptions,
                report: { state in
                    final = state
                    progress.update(
                        String(
                            format: "encode %@: %.2f s media, %d video / %d audio frames, %.0f kb/s video, speed %.2fx",
                            input, state.mediaSeconds, state.videoFrames, state.audioFrames,
                            state.mediaSeconds > 0 ? Double(state.videoBytes * 8) / state.mediaSeconds / 1000 : 0,
                            state.speed))
                },
                outputFailed: { failure in
                    progress.end()
                    SessionConsole.report(failure)
                })
        } catch let error as OutputsFailedError {
            // The other outputs are complete: say so, then exit 1 naming the failed ones.
            failedOutputs = error
        }
        progress.end()
        var summary = String(
            format: "done: %d video frames, %d audio frames, %.2f s media in %.2f s (%.2fx)",
            final.videoFrames, final.audioFrames, final.mediaSeconds, final.wallSeconds, final.speed)
        if let p50 = final.encodeLatency.percentile(50), let p99 = final.encodeLatency.percentile(99) {
            summary += String(format: ", encode latency p50 %.2f ms p99 %.2f ms", p50 * 1000, p99 * 1000)
            if let key = final.keyFrameEncodeLatency.percentile(50) {
                summary += String(format: " (keyframes p50 %.2f ms)", key * 1000)
            }
        }
        Console.status(summary)
        if let failedOutputs { throw failedOutputs }
        return 0
    }
}
#endif
