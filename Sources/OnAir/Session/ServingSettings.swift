#if canImport(OnAirServing)
import OnAirServing

/// How a session serves viewers itself (`onair serve`): the HTTP server, its SRT listener and
/// the live HLS that viewers get.
public struct ServingSettings: Sendable {
    /// Address, port, token, viewer limits, SRT port.
    public var server = ServeConfiguration()
    /// Seconds per live HLS segment (keyframes come at least this often).
    public var hlsSegmentDuration: Duration = .seconds(2)
    /// Which live HLS is written: MPEG-TS segments (H.265 is fMP4 whatever this says), fMP4, or
    /// Low-Latency HLS on fMP4.
    public var hlsVariant: HLSVariant = .mpegts
    /// Low-Latency HLS: the partial segments' duration (at most; they end where packets allow).
    public var hlsPartDuration: Duration = .milliseconds(200)
    /// Bytes that may wait for one viewer before it skips, or nil for 4 s of the stream (at least 1 MiB).
    public var viewerQueueBytes: Int?

    /// Serving on 127.0.0.1:8080.
    public init() {}
}
#endif
