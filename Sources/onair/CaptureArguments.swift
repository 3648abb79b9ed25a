/// The capture flags `record` and `stream` share: `--video`, `--audio` and `--duration`.
struct CaptureArguments {
    /// The source names; with neither `--video` nor `--audio` given, both are synthetic, and
    /// with one given, the other is `none`.
    let videoSpec: String
    let audioSpec: String
    /// Seconds of media to capture, or nil to run until stopped.
    let duration: Double?

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
    }
}
