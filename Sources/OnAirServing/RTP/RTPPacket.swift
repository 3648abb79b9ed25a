#if os(Linux)
import OnAirCore

/// One RTP packet of a track, made once by the track's `RTPPacketizer` and shared by every viewer
/// that sends it: viewers hold references to it in their queues, never copies.
///
/// The payload is in two parts, so that it is never copied per viewer and the media bytes are
/// not copied at all: `prefix`, the few bytes of payload header a packetization adds (an FU
/// indicator and header, AAC's AU headers; empty for a single NAL unit), then `bodyRange` of the
/// encoded packet's own `body` buffer. A viewer's send path writes its own 12-byte `RTPHeader`,
/// the prefix and the body with one gathered write. The sequence number and timestamp here are
/// the track's shared ones; `RTPClientRewrite` turns them into a viewer's.
package final class RTPPacket: Sendable {
    /// The track's sequence number (consecutive per track, wrapping at 65536).
    package let sequenceNumber: UInt16
    /// The track's RTP timestamp (the access unit's presentation time at the track's clock rate).
    package let timestamp: UInt32
    /// The marker bit: the last packet of a video access unit, or of an AAC access unit.
    package let marker: Bool
    /// The RTP payload type.
    package let payloadType: UInt8
    /// Whether this is the first packet of an access unit.
    package let startsAccessUnit: Bool
    /// Whether this is the first packet of a keyframe's access unit (for video, the parameter sets
    /// sent before the IDR or IRAP picture): where a viewer may join or skip to.
    package let startsKeyframe: Bool
    /// The presentation time of the access unit the packet belongs to.
    package let presentationTime: MediaTime
    /// The payload header bytes the packetization adds before the body (may be empty).
    package let prefix: [UInt8]
    /// The buffer the body bytes are in (the encoded packet's payload, or a parameter set).
    package let body: MediaBuffer
    /// The body's bytes in `body`.
    package let bodyRange: Range<Int>

    /// Creates a packet; `bodyRange` must lie within `body`.
    package init(
        sequenceNumber: UInt16, timestamp: UInt32, marker: Bool, payloadType: UInt8, startsAccessUnit: Bool,
        startsKeyframe: Bool, presentationTime: MediaTime, prefix: [UInt8], body: MediaBuffer, bodyRange: Range<Int>
    ) {
        precondition(bodyRange.lowerBound >= 0 && bodyRange.upperBound <= body.count, "RTP packet body outside its buffer")
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.marker = marker
        self.payloadType = payloadType
        self.startsAccessUnit = startsAccessUnit
        self.startsKeyframe = startsKeyframe
        self.presentationTime = presentationTime
        self.prefix = prefix
        self.body = body
        self.bodyRange = bodyRange
    }

    /// The payload's size in bytes (prefix and body), what RTCP counts as octets sent.
    package var payloadCount: Int { prefix.count + bodyRange.count }

    /// Calls `body` with the payload's two parts, the prefix and the body bytes, for a gathered write.
    package func withPayloadParts<R>(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try prefix.withUnsafeBytes { prefix in
            try self.body.withUnsafeBytes { bytes in
                try body(prefix, UnsafeRawBufferPointer(rebasing: bytes[bodyRange]))
            }
        }
    }

    /// The payload as one array (a copy: for tests and for writers that cannot gather).
    package var payload: [UInt8] {
        withPayloadParts { prefix, body in Array(prefix) + Array(body) }
    }

    /// The whole packet as a viewer sends it: `header` then the payload (a copy).
    package func bytes(with header: RTPHeader) -> [UInt8] {
        header.bytes + payload
    }
}
#endif
