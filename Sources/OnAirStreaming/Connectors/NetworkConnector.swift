#if os(Linux)
import OnAirCore

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Makes the connections of one network output, one transport each (FFmpeg's protocols, libsrt).
/// `NetworkSink`'s connector thread calls `connect` for every attempt and `close` once at the end.
protocol NetworkConnector: Sendable {
    /// Makes one connection (for a listener: waits for the peer until `deadline`) with a muxer
    /// started on it for the streams `known` describes; returns it with its transport's probe.
    /// `pacingBitRate` paces transports that can be paced (SRT).
    func connect(known: [MediaType: FormatDescription], deadline: NetworkDeadline, pacingBitRate: Int?) throws
        -> (NetworkConnection, TransportProbe?)
    /// Binds a listener URL's socket now, before any connection is wanted, and returns the port it
    /// holds (the kernel's choice for port 0); nil where the transport binds only while connecting.
    func listen() throws -> Int?
    /// Lets go of what outlives single connections (a bound listener).
    func close()
}

extension NetworkConnector {
    /// FFmpeg's protocols bind inside `connect` (its TCP listener takes no port 0).
    func listen() throws -> Int? { nil }
}
#endif
