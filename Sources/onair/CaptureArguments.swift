#if os(Linux)
/// The capture flags `record` and `stream` share: `--video`, `--audio` and `--duration`.
struct CaptureArguments {
    /// The source names; with neither `--video` nor `--audio` given, both are synthetic, and
    /// with one given, the other is `none`.
    let videoSpec: String
    let audioSpec: String
    /// Seconds of media to capture, or nil to run until stopped.
    let duration: Double?
    /// The synthetic audio's sample-clock offset against the capture clock, in ppm (a test signal).
    let syntheticAudioPPM: Double
    /// Where the media time line starts (`--timeline-start`, seconds; a diagnostic).
    let timelineStart: Double

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
        timelineStart = try arguments.option("--timeline-start").map { try EncodingOptions.number($0, "--timeline-start") } ?? 0
        guard (0...10_000_000).contains(timelineStart) else { throw UsageError("--timeline-start takes 0…10000000 seconds") }
        syntheticAudioPPM =
            try arguments.option("--synthetic-audio-ppm").map { try EncodingOptions.number($0, "--synthetic-audio-ppm") } ?? 0
        if syntheticAudioPPM != 0 {
            guard audioSpec == "synthetic" else { throw UsageError("--synthetic-audio-ppm needs the synthetic audio source") }
            guard abs(syntheticAudioPPM) <= 50_000 else { throw UsageError("--synthetic-audio-ppm takes -50000…50000") }
        }
    }
}
#endif
