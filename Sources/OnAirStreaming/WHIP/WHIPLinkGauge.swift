#if os(Linux)
import OnAirLive

/// Turns what a WebRTC sender learns from the receiver's RTCP reports (packets lost, round trip)
/// into the `TransportMeasurement` adaptive bitrate reads for every network output: a pure value,
/// fed the sender's running totals at each reading.
///
/// - Delivered bytes: those sent less the lost packets at the average packet size (never falling).
/// - Round trip from the latest receiver report, and its minimum: a rise is the network's queue.
/// - Lost packets as reported (a loss while a queue stands is congestion, for the controller);
///   losses within a second whose loss fraction is over `heavyLossFraction` (10 %, where Google's
///   congestion control steps down on loss alone) also count as dropped, which steps down at once.
package struct WHIPLinkGauge: Sendable {
    /// The loss fraction over about a second above which losses count as drops.
    public var heavyLossFraction = 0.1
    private var minimumRoundTrip: Double?
    private var delivered = 0
    private var dropped = 0
    private var lastLost = 0
    /// (time, packets sent, packets lost) readings of about the last second.
    private var history: [(time: Double, sent: Int, lost: Int)] = []

    /// A gauge for a new connection.
    public init() {}

    /// The measurement at `time` (seconds) from the sender's totals: RTP bytes and packets sent,
    /// packets the receiver reports lost (nil: no report yet), the latest round trip, and the bytes
    /// waiting in the sender's own pipeline.
    public mutating func measure(
        at time: Double, bytesSent: Int, packetsSent: Int, packetsLost: Int?, roundTrip: Double?, queuedBytes: Int
    ) -> TransportMeasurement {
        let lost = max(0, packetsLost ?? 0)
        if let roundTrip, roundTrip > 0 { minimumRoundTrip = min(minimumRoundTrip ?? roundTrip, roundTrip) }
        history.append((time, packetsSent, lost))
        while history.count > 2 && time - history[1].time >= 1 { history.removeFirst() }
        if lost > lastLost, let first = history.first {
            let sent = packetsSent - first.sent
            let fraction = sent > 0 ? Double(lost - first.lost) / Double(sent) : 0
            if fraction > heavyLossFraction { dropped += lost - lastLost }
        }
        lastLost = max(lastLost, lost)
        let averagePacket = packetsSent > 0 ? Double(bytesSent) / Double(packetsSent) : 0
        delivered = max(delivered, bytesSent - Int(Double(lost) * averagePacket))
        return TransportMeasurement(
            bytesAcknowledged: delivered, queuedBytes: queuedBytes, roundTripTime: roundTrip,
            minimumRoundTripTime: minimumRoundTrip, droppedPackets: dropped, lostPackets: lost)
    }
}
#endif
