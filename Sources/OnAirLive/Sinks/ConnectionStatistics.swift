/// Counters of one network sink's connection, for `LiveStatistics`.
package struct ConnectionStatistics: Sendable, Equatable {
    /// Whether packets are going out now.
    public var isConnected = false
    /// Connections re-established after one was lost.
    public var reconnects = 0
    /// Seconds spent without a connection after the first one was made (including now, if offline).
    public var offlineSeconds = 0.0
    /// Packets not sent because there was no connection or it was waiting for a keyframe.
    public var droppedPackets = 0
    /// Times the backlog grew past its bound and was cut by skipping to a fresh keyframe.
    public var backlogSkips = 0
    /// Bytes of packets sent over the connections since the start (before muxing overhead).
    public var bytesSent = 0

    /// Creates zeroed counters.
    public init() {}
}
