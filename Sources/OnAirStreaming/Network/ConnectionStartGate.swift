#if os(Linux)
import OnAirCore

/// Decides, packet by packet, what a fresh connection of a network output may send: nothing until
/// a keyframe (for a stream without video, the first packet), nothing older than that start
/// (muxers such as FLV refuse earlier decode times), the first packet of each stream carrying its
/// configuration, and — while a backlog is cut — nothing until a keyframe captured after the cut.
package struct ConnectionStartGate {
    /// The streams the output carries.
    package let streams: Set<MediaType>
    private(set) var awaitingKeyFrame = true
    private var skipUntil: MediaTime?
    private var startTime: MediaTime?
    private var described: Set<MediaType> = []

    package init(streams: Set<MediaType>) {
        self.streams = streams
    }

    /// Starts over for a new connection.
    package mutating func reset() {
        self = ConnectionStartGate(streams: streams)
    }

    /// Whether `packet` may start a stream or end a cut: a video keyframe, or anything without video.
    private func startsHere(_ packet: EncodedPacket) -> Bool {
        streams.contains(.video) ? packet.mediaType == .video && packet.isKeyframe : true
    }

    /// The packet to send for `packet` (with its stream's configuration when it is the first of
    /// its stream on this connection, taken from `known` if the packet has none), or nil to drop it.
    package mutating func admit(_ packet: EncodedPacket, known: [MediaType: FormatDescription]) -> EncodedPacket? {
        if awaitingKeyFrame {
            guard startsHere(packet) else { return nil }
            awaitingKeyFrame = false
            startTime = packet.dts
        }
        if let skipUntil {
            guard packet.dts > skipUntil && startsHere(packet) else { return nil }
            self.skipUntil = nil
        }
        if let startTime, packet.dts < startTime { return nil }
        var outgoing = packet
        if !described.contains(packet.mediaType) {
            outgoing.formatDescription = packet.formatDescription ?? known[packet.mediaType]
            described.insert(packet.mediaType)
        }
        return outgoing
    }

    /// Starts cutting a backlog at `time` (drop until a keyframe after it); false when a cut is
    /// already under way or the connection has not started.
    package mutating func cut(after time: MediaTime) -> Bool {
        guard skipUntil == nil, !awaitingKeyFrame else { return false }
        skipUntil = time
        return true
    }
}
#endif
