#if os(Linux)
/// What one viewer's RTP stream of a track differs in from the track's shared packets (RFC 3550
/// wants a random SSRC, sequence start and timestamp start per session): its SSRC, its own
/// sequence numbers and a timestamp offset, put on each shared packet as its 12-byte header at
/// send time; the shared payload is not copied. It also counts what it sent, for the viewer's
/// RTCP sender reports.
///
/// Sequence numbers come from the viewer's own counter, one per packet it is sent, not from the
/// shared number plus an offset: a viewer that skips packets (it joined at a keyframe, or its
/// queue overflowed and it skipped to the next keyframe) still sees consecutive numbers, so its
/// receiver reports no loss and asks for no retransmission of what was dropped on purpose (with
/// an offset, every skip would have to move the offset by the packets skipped). Timestamps keep
/// the shared line plus a fixed offset: the gap a skip leaves is real time, and the mapping to
/// the wall clock in sender reports stays the track's.
package struct RTPClientRewrite: Sendable, Hashable {
    /// The viewer's synchronization source for this track.
    package let ssrc: UInt32
    /// Added to every shared timestamp (modulo 2^32).
    package let timestampOffset: UInt32
    /// The sequence number the next packet sent gets.
    package private(set) var nextSequenceNumber: UInt16
    /// Packets sent so far (RTCP's sender's packet count, wrapping at 2^32).
    package private(set) var packetCount: UInt32 = 0
    /// Payload bytes sent so far, headers not counted (RTCP's sender's octet count, wrapping at 2^32).
    package private(set) var octetCount: UInt32 = 0

    /// A rewrite with the given SSRC, first sequence number and timestamp offset; each defaults to a random value.
    package init(ssrc: UInt32? = nil, sequenceBase: UInt16? = nil, timestampOffset: UInt32? = nil) {
        self.ssrc = ssrc ?? UInt32.random(in: .min ... .max)
        nextSequenceNumber = sequenceBase ?? UInt16.random(in: .min ... .max)
        self.timestampOffset = timestampOffset ?? UInt32.random(in: .min ... .max)
    }

    /// The viewer's timestamp for a shared one.
    package func timestamp(forShared timestamp: UInt32) -> UInt32 {
        timestamp &+ timestampOffset
    }

    /// The header the viewer sends `packet` with; counts the packet as sent (call once per packet
    /// actually written).
    package mutating func header(for packet: RTPPacket) -> RTPHeader {
        defer {
            nextSequenceNumber &+= 1
            packetCount &+= 1
            octetCount &+= UInt32(truncatingIfNeeded: packet.payloadCount)
        }
        return RTPHeader(
            marker: packet.marker, payloadType: packet.payloadType, sequenceNumber: nextSequenceNumber,
            timestamp: timestamp(forShared: packet.timestamp), ssrc: ssrc)
    }
}
#endif
