/// What a network transport itself reports about its link: the bytes the peer has acknowledged,
/// what waits in the transport's own send buffer, and the round trip.
///
/// TCP links (RTMP, RTMPS, TCP) read it from the kernel (`TCP_INFO`, `SIOCOUTQ`); SRT from
/// libsrt's statistics. UDP has no feedback and reports nothing.
package struct TransportMeasurement: Sendable, Equatable {
    /// Bytes the peer has acknowledged since the connection started (a running total).
    public var bytesAcknowledged: Int
    /// Bytes in the transport's send buffer: not yet sent, or sent and not yet acknowledged.
    public var queuedBytes: Int
    /// The time span of the send buffer's content in seconds, where the transport knows it (SRT).
    public var queuedSeconds: Double?
    /// Smoothed round-trip time in seconds, if known.
    public var roundTripTime: Double?
    /// The lowest round-trip time seen on the connection, in seconds, if known.
    public var minimumRoundTripTime: Double?
    /// The transport's own estimate of the link's delivery rate in bits per second, if known.
    public var deliveryRate: Int?
    /// Packets the transport gave up on (SRT's too-late drops) since the connection started.
    public var droppedPackets: Int
    /// Packets the transport resent since the connection started.
    public var retransmittedPackets: Int
    /// Packets the network lost since the connection started, as the transport learned of them
    /// (SRT: the receiver's loss reports; TCP: segments retransmitted). Losses while a queue
    /// stands mean the bottleneck's buffer overflows.
    public var lostPackets: Int

    /// Creates a reading.
    public init(
        bytesAcknowledged: Int, queuedBytes: Int, queuedSeconds: Double? = nil, roundTripTime: Double? = nil,
        minimumRoundTripTime: Double? = nil, deliveryRate: Int? = nil, droppedPackets: Int = 0,
        retransmittedPackets: Int = 0, lostPackets: Int = 0
    ) {
        self.bytesAcknowledged = bytesAcknowledged
        self.queuedBytes = queuedBytes
        self.queuedSeconds = queuedSeconds
        self.roundTripTime = roundTripTime
        self.minimumRoundTripTime = minimumRoundTripTime
        self.deliveryRate = deliveryRate
        self.droppedPackets = droppedPackets
        self.retransmittedPackets = retransmittedPackets
        self.lostPackets = lostPackets
    }

    /// The queueing delay the round trip shows above its minimum (a queue in the network itself).
    public var networkQueueingDelay: Double {
        guard let roundTripTime, let minimumRoundTripTime else { return 0 }
        return max(0, roundTripTime - minimumRoundTripTime)
    }
}
