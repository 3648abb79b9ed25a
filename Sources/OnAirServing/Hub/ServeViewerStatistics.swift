#if os(Linux)
/// One viewer's entry in `/stats.json`.
package struct ServeViewerStatistics: Sendable, Codable, Equatable {
    /// The viewer's number.
    public var id: Int
    /// `http` or `srt`.
    public var transport: String
    /// The stream it gets.
    public var format: ServeFormat
    /// The peer's address.
    public var address: String
    /// Bytes handed to the transport.
    public var bytesSent: Int
    /// Bytes and chunks waiting in its queue.
    public var queueBytes: Int, queueChunks: Int
    /// Seconds since the oldest waiting chunk was published (or since the viewer arrived, for
    /// chunks it got from the keyframe cache).
    public var lagSeconds: Double
    /// Times it skipped ahead to a keyframe because its queue was full.
    public var skips: Int
    /// Chunks it did not get (skipped).
    public var droppedChunks: Int
    /// Seconds since it connected.
    public var connectedSeconds: Double
    /// Seconds from connecting to the first keyframe handed to the transport (nil: none yet).
    public var firstKeyframeSeconds: Double?
    /// SRT callers: libsrt's round-trip time in milliseconds.
    public var rttMs: Double?
    /// SRT callers: packets lost (retransmitted) and dropped by the sender.
    public var lostPackets: Int?, droppedPackets: Int?
    /// SRT callers: milliseconds of data in the send buffer.
    public var sendBufferMs: Double?
    /// Elementary viewers (RTSP): packets handed to the transport.
    public var packetsSent: Int?
    /// What admitted it: `token #N`, `user NAME` or `anyone` (never a secret), so the viewers still
    /// on a token about to be removed can be counted first.
    public var admittedBy: String?
}
#endif
