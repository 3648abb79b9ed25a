#if os(Linux)
import OnAirCore

/// Until the first connection of a caller URL is made: the packets since the latest keyframe (for
/// a stream without video, the last `replayLimit` seconds), sent first when the connection comes
/// within `replayLimit`, so the stream starts with the session's first frame rather than after the
/// connect time. Older packets would put the receiver behind for good, so they are dropped.
struct FirstConnectionHold {
    /// Seconds of packets from before the first connection that are sent once it is made.
    static let replayLimit = 1.0
    let streams: Set<MediaType>
    /// Whether packets are still being held (until the first connection).
    private(set) var isHolding: Bool
    private var held: [EncodedPacket] = []

    init(streams: Set<MediaType>, holding: Bool) {
        self.streams = streams
        isHolding = holding
    }

    /// Keeps `packet`; returns how many older packets it made obsolete (dropped).
    mutating func hold(_ packet: EncodedPacket) -> Int {
        let startsOver =
            streams.contains(.video)
            ? packet.mediaType == .video && packet.isKeyframe
            : held.first.map { packet.dts.seconds - $0.dts.seconds > Self.replayLimit } ?? false
        var dropped = 0
        if startsOver {
            dropped = held.count
            held = []
        }
        held.append(packet)
        return dropped
    }

    /// Ends holding as the first connection takes over at `packet`: what to replay before it, and
    /// how many held packets were too old to send.
    mutating func release(at packet: EncodedPacket) -> (replay: [EncodedPacket], dropped: Int) {
        isHolding = false
        let backlog = held
        held = []
        if let first = backlog.first, packet.dts.seconds - first.dts.seconds <= Self.replayLimit { return (backlog, 0) }
        return ([], backlog.count)
    }
}
#endif
