import OnAirCore
import OnAirLive

extension LiveSession {
    /// Sets up a session whose encoders `EncoderFactory` opens from `configuration` (settings
    /// validated, hardware first), before anything runs; see the initializer that takes encoders.
    package convenience init(
        configuration: Configuration, sources: [any CaptureSource], sinks: [any PacketSink],
        networkSinks: [any PacketSink] = [],
        bitRateDecisions: (@Sendable (BitrateDecision) -> Void)? = nil,
        outputFailed: (@Sendable (OutputFailure) -> Void)? = nil,
        notices: (@Sendable (String) -> Void)? = nil
    ) throws {
        let encoders = try EncoderFactory.encoders(video: configuration.openingVideo, audio: configuration.audio)
        try self.init(
            configuration: configuration, sources: sources, sinks: sinks, networkSinks: networkSinks,
            videoEncoder: encoders.video, audioEncoder: encoders.audio, bitRateDecisions: bitRateDecisions,
            outputFailed: outputFailed, notices: notices)
    }
}
