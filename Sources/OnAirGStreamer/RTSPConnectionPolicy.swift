#if os(Linux)
/// One reading of an RTSP connection, as the shim takes it: running totals since it opened.
package struct RTSPConnectionSample: Sendable, Equatable {
    /// Bytes the server took from the socket (received less still unread).
    package var consumed: UInt64
    /// Bytes of interleaved RTP/RTCP (with their 4-byte frame headers) its media took.
    package var data: UInt64
    /// Whether the client has a session.
    package var hasSession: Bool

    /// A reading of these totals.
    package init(consumed: UInt64, data: UInt64, hasSession: Bool = false) {
        self.consumed = consumed
        self.data = data
        self.hasSession = hasSession
    }
}

/// The limits an `RTSPServer` holds its connections to (OnAirServing's `RTSPGuardPolicy`): told of
/// each connection opening, ending a request and closing, and asked about each four times a
/// second, with readings and monotonic times in seconds. `RTSPServerGuard` serialises the calls.
package protocol RTSPConnectionPolicy: Sendable {
    /// A new connection `id`: false cuts it at once. Counted either way until `close(_:)`.
    mutating func admits(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool
    /// Connection `id` has a complete request: the bytes it took (interleaved data not counted),
    /// nil when unknown.
    mutating func requestDone(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> UInt64?
    /// Whether connection `id` may go on, on a reading taken `now` (false cuts it).
    mutating func keeps(_ id: UInt64, _ sample: RTSPConnectionSample, now: Double) -> Bool
    /// Connection `id` closed.
    mutating func close(_ id: UInt64)
}
#endif
