/// One reading of a network output: what it has handed to its transport so far, what waits in
/// OnAir's own queue, and what the transport reports (acknowledged bytes, its buffer, round trip).
package struct LinkMeasurement: Sendable, Equatable {
    /// When it was taken, in seconds on a monotonic clock.
    public var time: Double
    /// Bytes handed to the transport since the start (a running total).
    public var bytesSent: Int
    /// Seconds of media waiting in OnAir's send queue for this output.
    public var queuedSeconds: Double
    /// Bytes waiting in OnAir's send queue for this output.
    public var queuedBytes: Int
    /// Whether the output has a connection now (an offline output says nothing about the link).
    public var isConnected: Bool
    /// The transport's own figures (TCP_INFO, libsrt statistics), nil when it gives none (UDP).
    public var transport: TransportMeasurement?

    /// Creates a reading.
    public init(
        time: Double, bytesSent: Int, queuedSeconds: Double, queuedBytes: Int, isConnected: Bool,
        transport: TransportMeasurement? = nil
    ) {
        self.time = time
        self.bytesSent = bytesSent
        self.queuedSeconds = queuedSeconds
        self.queuedBytes = queuedBytes
        self.isConnected = isConnected
        self.transport = transport
    }

    /// Bytes that have reached the peer: acknowledged ones where the transport says, else those sent.
    var bytesDelivered: Int { transport?.bytesAcknowledged ?? bytesSent }

    /// Everything between the encoder and the wire: OnAir's queue and the transport's buffer.
    var totalQueuedBytes: Int { queuedBytes + (transport?.queuedBytes ?? 0) }
}
