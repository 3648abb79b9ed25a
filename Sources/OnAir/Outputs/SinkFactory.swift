import Foundation
import OnAirCore
import OnAirLive

/// Makes the sink for an output named by path or URL, through `OutputRegistry`; for callers that
/// assemble a `LiveSession` themselves (the session builder does this for you).
package enum SinkFactory {
    /// Options that change how container files are written.
    public typealias ContainerOptions = OutputOptions

    /// A sink for `path` carrying `streams`: the registry's kind for its extension or URL scheme.
    public static func sink(for path: String, streams: Set<MediaType>, options: ContainerOptions = ContainerOptions()) throws
        -> any PacketSink
    {
        let kind = try OutputRegistry.kind(for: path)
        return try kind.makeSink(
            OutputContext(
                name: path, streams: streams.intersection(kind.streams), options: options,
                streaming: StreamingSettings()))
    }

    /// `video` as `outputs` need it: a keyframe at least as often as the most demanding output's
    /// kind asks (an HLS segment starts on one). Other outputs take the settings as they are.
    public static func videoSettings(
        _ video: VideoEncoderSettings, for outputs: [String],
        options: ContainerOptions = ContainerOptions()
    ) -> VideoEncoderSettings {
        let spacings = outputs.compactMap { try? OutputRegistry.kind(for: $0).requiredKeyFrameSpacing(options: options) }
        guard let spacing = spacings.min() else { return video }
        return video.withKeyFrames(atLeastEvery: spacing.inSeconds)
    }

    /// The streams an output can carry: `.h264` only video, `.aac` only audio, containers both.
    public static func streams(for path: String) -> Set<MediaType> {
        (try? OutputRegistry.kind(for: path).streams) ?? [.video, .audio]
    }

    /// The playlist path when `output` names an HLS output (`….m3u8` or `hls:DIR`), else nil.
    public static func hlsPlaylist(for output: String) -> String? { OutputRegistry.hlsPlaylist(for: output) }
}
