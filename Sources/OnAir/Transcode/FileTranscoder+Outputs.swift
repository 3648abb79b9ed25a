#if canImport(OnAirFFmpeg)
import OnAirCore
import OnAirLive

extension FileTranscoder {
    /// Opens `input` and the encoders for `outputs` (paths, by `OutputRegistry`): keyframes come
    /// as often as the outputs need (an HLS segment starts on one); otherwise as the designated
    /// initializer.
    public convenience init(
        input: String, outputs: [String], options: OutputOptions = OutputOptions(),
        video: VideoEncoderSettings?, audio: AudioEncoderSettings?,
        followInput: FollowInput = FollowInput(), forceKeyFrameTimes: [Double] = []
    ) throws {
        for output in outputs { _ = try OutputRegistry.kind(for: output) }
        try self.init(
            input: input, video: video.map { SinkFactory.videoSettings($0, for: outputs, options: options) },
            audio: audio, followInput: followInput, forceKeyFrameTimes: forceKeyFrameTimes)
    }

    /// Runs to the end of the input writing every output in `outputs` (made through
    /// `OutputRegistry`, each with the streams its kind carries); failures as `run(sinks:…)`.
    public func run(
        outputs: [String], options: OutputOptions = OutputOptions(), report: (Progress) -> Void = { _ in },
        outputFailed: @escaping (OutputFailure) -> Void = { _ in }
    ) throws {
        var streams = Set<MediaType>()
        if videoSettings != nil { streams.insert(.video) }
        if audioSettings != nil { streams.insert(.audio) }
        let sinks = try outputs.map { try SinkFactory.sink(for: $0, streams: streams, options: options) }
        try run(sinks: sinks, report: report, outputFailed: outputFailed)
    }
}
#endif
