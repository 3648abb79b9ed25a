import Foundation
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// The segmented recording among a session's outputs (`SessionSettings.recording`): its sink,
/// made beside the registry's file kinds and driven like them (every packet written, the encoder
/// waits rather than lose one).
extension OutputRegistry {
    /// The sink that records `streams` as `settings` say on `clock`; `log` hears deletions and
    /// finished segments.
    package static func segmentedRecorder(
        _ settings: RecordingSettings, streams: Set<MediaType>, clock: AnchoredClock, log: @escaping @Sendable (String) -> Void
    ) throws -> any PacketSink {
        #if canImport(OnAirFFmpeg)
        return try SegmentedRecorder(settings: settings, streams: streams, clock: clock, log: log)
        #else
        throw SinkError.unknownOutput(settings.template.text)
        #endif
    }
}
