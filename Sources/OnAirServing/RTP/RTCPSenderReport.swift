#if os(Linux)
import Foundation

/// An RTCP sender report (RFC 3550 §6.4.1) of one viewer's stream of a track, with no reception
/// report blocks (the server receives nothing), optionally in a compound packet with an SDES
/// CNAME (§6.5), as §6.1 wants of every RTCP packet sent.
///
/// The report pairs a wall-clock time (NTP format) with the RTP timestamp of the same instant,
/// which is what lets a player line up a viewer's audio and video: the caller takes the instant
/// from one clock for every track, and the RTP timestamp from the track's packetizer at the
/// presentation time of that instant, through the viewer's rewrite.
package struct RTCPSenderReport: Sendable, Hashable {
    /// Seconds from the NTP epoch (1900-01-01) to the Unix epoch (1970-01-01).
    package static let ntpEpochOffset: UInt64 = 2_208_988_800

    /// The sender's SSRC (the viewer's for this track).
    package var ssrc: UInt32
    /// The wall-clock time, NTP format: seconds since 1900 in the high 32 bits, the fraction in the low.
    package var ntpTimestamp: UInt64
    /// The RTP timestamp of the same instant, on the viewer's line.
    package var rtpTimestamp: UInt32
    /// Packets sent to the viewer so far.
    package var packetCount: UInt32
    /// Payload octets sent to the viewer so far.
    package var octetCount: UInt32

    /// Creates a report from its fields.
    package init(ssrc: UInt32, ntpTimestamp: UInt64, rtpTimestamp: UInt32, packetCount: UInt32, octetCount: UInt32) {
        self.ssrc = ssrc
        self.ntpTimestamp = ntpTimestamp
        self.rtpTimestamp = rtpTimestamp
        self.packetCount = packetCount
        self.octetCount = octetCount
    }

    /// The report of a viewer's stream at wall-clock time `wallClock`, whose shared RTP timestamp
    /// (the packetizer's `timestamp(at:)` for the presentation time of that instant) is
    /// `sharedTimestamp`, with the viewer's counts so far.
    package init(for client: RTPClientRewrite, sharedTimestamp: UInt32, wallClock: Date) {
        self.init(
            ssrc: client.ssrc, ntpTimestamp: Self.ntpTimestamp(wallClock), rtpTimestamp: client.timestamp(forShared: sharedTimestamp),
            packetCount: client.packetCount, octetCount: client.octetCount)
    }

    /// `date` in NTP format (64 bits: seconds since 1900 and a 32-bit fraction; wraps in 2036 as NTP does).
    package static func ntpTimestamp(_ date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let fraction = UInt64(((seconds - whole) * 4_294_967_296).rounded(.down))
        let ntpSeconds = UInt64(truncatingIfNeeded: Int64(whole) + Int64(ntpEpochOffset)) & 0xFFFF_FFFF
        return ntpSeconds << 32 | min(fraction, 0xFFFF_FFFF)
    }

    /// The 28 bytes of the report: version 2, no padding, no report blocks, packet type 200, length 6.
    package var bytes: [UInt8] {
        var output: [UInt8] = [0x80, 200, 0, 6]
        append(ssrc, to: &output)
        append(UInt32(truncatingIfNeeded: ntpTimestamp >> 32), to: &output)
        append(UInt32(truncatingIfNeeded: ntpTimestamp), to: &output)
        append(rtpTimestamp, to: &output)
        append(packetCount, to: &output)
        append(octetCount, to: &output)
        return output
    }

    /// The report followed by an SDES packet with one chunk, this SSRC's CNAME (at most 255 bytes
    /// of it), padded with zeros to a 32-bit boundary with at least one zero ending the items.
    package func compound(cname: String) -> [UInt8] {
        let name = Array(cname.utf8.prefix(255))
        var chunk: [UInt8] = []
        append(ssrc, to: &chunk)
        chunk += [1, UInt8(name.count)] + name
        chunk += [UInt8](repeating: 0, count: 4 - chunk.count % 4)
        // The length in 32-bit words minus one: the chunk's words (the header is the one).
        let length = UInt16(chunk.count / 4)
        return bytes + [0x81, 202, UInt8(length >> 8), UInt8(truncatingIfNeeded: length)] + chunk
    }

    /// Appends `value` big-endian.
    private func append(_ value: UInt32, to output: inout [UInt8]) {
        output += [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
#endif
