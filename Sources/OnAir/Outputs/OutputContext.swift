import OnAirCore
import OnAirLive
#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// What an output kind needs to make its sink.
package struct OutputContext: Sendable {
    /// The output as named: a path or a URL.
    public var name: String
    /// The streams the session produces, already narrowed to what the kind carries.
    public var streams: Set<MediaType>
    /// File options (MP4 layout, HLS).
    public var options: OutputOptions
    /// Network outputs: reconnect timing, adaptive-bitrate and TLS settings.
    public var streaming: StreamingSettings
    /// Network outputs: the TCP send buffer for the stream's highest rate, or nil for the system's.
    public var sendBufferBytes: Int?
    /// Network outputs: hears connection events (connected, lost, reconnected).
    public var connectionEvents: (@Sendable (ConnectionChange) -> Void)?
}
