/// Holds back one packet per track so each gets its exact duration: the gap to the next packet
/// of its track, in that track's time scale. A fragmented MP4 muxer needs it: a fragment's end
/// must meet the next fragment's start, and nominal durations longer than the real gap make
/// libavformat rewrite timestamps (and abort at the next flush).
package struct SampleHoldBack: Sendable {
    private var held: [MediaType: EncodedPacket] = [:]

    /// Nothing held.
    package init() {}

    /// Keeps `packet` (already in its track's time scale) and gives back the one held before it
    /// in the same track, its duration now the gap to `packet` (at least one tick); nil for a track's first.
    package mutating func next(_ packet: EncodedPacket) -> EncodedPacket? {
        let previous = held[packet.mediaType]
        held[packet.mediaType] = packet
        guard var previous else { return nil }
        previous.duration = MediaTime(value: max(1, packet.dts.value - previous.dts.value), timescale: packet.dts.timescale)
        return previous
    }

    /// The packets still held (video first), with their own durations; nothing is held afterwards.
    package mutating func drain() -> [EncodedPacket] {
        defer { held = [:] }
        return [MediaType.video, .audio].compactMap { held[$0] }
    }
}
