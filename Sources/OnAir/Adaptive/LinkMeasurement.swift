/// One reading of a network output: what it has sent so far and what waits to be sent.
public struct LinkMeasurement: Sendable, Equatable {
    /// When it was taken, in seconds on a monotonic clock.
    public var time: Double
    /// Bytes sent over the connection(s) since the start (a running total).
    public var bytesSent: Int
    /// Seconds of media waiting in the output's send queue.
    public var queuedSeconds: Double
    /// Bytes waiting in the output's send queue.
    public var queuedBytes: Int
    /// Whether the output has a connection now (an offline output says nothing about the link).
    public var isConnected: Bool

    /// Creates a reading.
    public init(time: Double, bytesSent: Int, queuedSeconds: Double, queuedBytes: Int, isConnected: Bool) {
        self.time = time
        self.bytesSent = bytesSent
        self.queuedSeconds = queuedSeconds
        self.queuedBytes = queuedBytes
        self.isConnected = isConnected
    }
}
