#if os(Linux)
/// One WebRTC viewer in `/stats.json`.
package struct WebRTCViewerStatistics: Sendable, Codable, Equatable {
    /// The session id (the last segment of its /whep resource).
    public var id: String
    /// The HTTP peer that made the session.
    public var peer: String
    /// Seconds since the offer was answered.
    public var seconds: Double
    /// Whether it is past its handshake and first keyframe.
    public var live: Bool
    /// Video frames and Opus packets handed to its pipeline.
    public var framesSent: Int, audioPacketsSent: Int
    /// Times its queue overflowed and it skipped to a keyframe.
    public var skips: Int
    /// Bytes waiting for it now: in its queue and in its pipeline's sources.
    public var queuedBytes: Int
    /// RTP bits per second sent, averaged since the start.
    public var bitRate: Int
    /// Round trip from its latest receiver report (nil: none yet).
    public var roundTripMilliseconds: Double?
    /// Packets it reports lost (nil: no report yet).
    public var packetsLost: Int?
    /// NACKs, PLIs and FIRs it sent.
    public var nacks: Int, plis: Int, firs: Int
    /// Packets its NACKs asked for again, and retransmissions (RTX) sent for them.
    public var retransmissionRequests: Int, retransmissions: Int
    /// RTP packets sent to it.
    public var packetsSent: Int
    /// RTCP packets received from it.
    public var rtcpPackets: Int
    /// What admitted it: `token #N`, `user NAME` or `anyone` (never a secret).
    public var admittedBy: String
}
#endif
