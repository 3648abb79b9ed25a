#if os(Linux)
import OnAirBitstream
import OnAirCore

/// Turns one track's encoded packets into RTP packets, once for every viewer ("packetize once,
/// send many", issue 45): H.264 per RFC 6184 (packetization-mode 1: single NAL unit packets and
/// FU-A fragments), H.265 per RFC 7798 (single NAL unit packets and fragmentation units) and AAC
/// per RFC 3640 (mpeg4-generic, AAC-hbr: one access unit per packet, fragmented when larger).
///
/// The track has one line of sequence numbers (consecutive, wrapping at 65536, from a random or
/// given base) and one of timestamps (the presentation time at the clock rate, 90 kHz for video and
/// the sample rate for AAC, plus a random or given base, modulo 2^32). Each viewer's own SSRC,
/// sequence numbers and timestamp offset are put on at send time by its `RTPClientRewrite`.
///
/// Video parameter sets go before every keyframe: the encoders put them in band, and when a
/// keyframe comes without them those last given in a format description are sent first, so a
/// viewer that joins at a keyframe (`RTPPacket.startsKeyframe`) can decode without the SDP's.
/// Access-unit delimiters are left out. The input is our own encoders' output, yet lengths are
/// guarded throughout: malformed data yields fewer packets or an error, never a crash.
package struct RTPPacketizer: Sendable {
    /// The largest RTP payload by default: 1400 bytes keep a packet with IP, UDP and RTP headers
    /// (and RTSP's 4-byte interleaving) under a 1500-byte Ethernet MTU, with room for tunnels.
    package static let defaultMaximumPayloadSize = 1400
    /// The smallest payload size taken: room for the largest payload header (AAC's 4 bytes) and data.
    package static let minimumPayloadSize = 16
    /// The largest AAC access unit AAC-hbr's 13-bit AU-size can say.
    package static let maximumAACAccessUnit = (1 << 13) - 1

    /// The codec of the track (H.264, H.265 or AAC).
    package let codec: MediaCodec
    /// The RTP payload type (dynamic, 96…127 for these codecs).
    package let payloadType: UInt8
    /// The RTP clock rate: 90000 for video, the sample rate for AAC.
    package let clockRate: Int
    /// The largest RTP payload a packet carries.
    package let maximumPayloadSize: Int
    /// What is added to every timestamp (RFC 3550 wants a random start).
    package let timestampBase: UInt32
    /// The sequence number the next packet gets.
    package private(set) var nextSequenceNumber: UInt16
    /// The parameter sets or AudioSpecificConfig: the SDP's, and those a keyframe without
    /// parameter sets in band is given.
    package private(set) var formatDescription: FormatDescription?

    /// The parameter sets of `formatDescription` as buffers, in decoding order.
    private var parameterSets: [MediaBuffer] = []

    /// A packetizer for a track of `codec`. AAC needs its AudioSpecificConfig in
    /// `formatDescription` (for the clock rate); video takes its parameter sets from it when given.
    /// `sequenceBase` and `timestampBase` default to random values.
    ///
    /// Throws when the codec is not H.264, H.265 or AAC, the AAC config is missing or unreadable,
    /// or `maximumPayloadSize` is below `minimumPayloadSize`.
    package init(
        codec: MediaCodec, payloadType: UInt8, formatDescription: FormatDescription?,
        maximumPayloadSize: Int = defaultMaximumPayloadSize, sequenceBase: UInt16? = nil, timestampBase: UInt32? = nil
    ) throws(BitstreamError) {
        guard maximumPayloadSize >= Self.minimumPayloadSize else {
            throw BitstreamError.invalidValue(
                field: "RTP payload size", value: Int64(maximumPayloadSize), allowed: "\(Self.minimumPayloadSize) or more")
        }
        switch codec {
        case .h264, .h265:
            clockRate = 90_000
        case .aac:
            guard case .aac(let config)? = formatDescription else {
                throw BitstreamError.malformed("an AAC track needs its AudioSpecificConfig")
            }
            clockRate = try AudioSpecificConfig(parsing: config).outputSampleRate
            guard clockRate > 0 else { throw BitstreamError.malformed("an AAC config without a sample rate") }
        case .opus:
            throw BitstreamError.unsupported("RTP packetization of \(codec.rawValue)")
        }
        self.codec = codec
        self.payloadType = payloadType & 0x7F
        self.maximumPayloadSize = maximumPayloadSize
        self.timestampBase = timestampBase ?? UInt32.random(in: .min ... .max)
        nextSequenceNumber = sequenceBase ?? UInt16.random(in: .min ... .max)
        remember(formatDescription)
    }

    /// The track's RTP timestamp for presentation time `time` (also what an RTCP sender report
    /// pairs with a wall-clock time): `time` at the clock rate plus the base, modulo 2^32.
    package func timestamp(at time: MediaTime) -> UInt32 {
        timestampBase &+ UInt32(truncatingIfNeeded: time.converted(to: Int32(clockRate)).value)
    }

    /// The RTP packets of one encoded packet (an access unit), in sending order; the marker bit is
    /// on the last. Empty when the packet holds nothing to send.
    ///
    /// Throws when the packet's codec is not the track's, its form cannot be read, or an AAC
    /// access unit is larger than AAC-hbr can say.
    package mutating func packetize(_ packet: EncodedPacket) throws(BitstreamError) -> [RTPPacket] {
        guard packet.codec == codec else {
            throw BitstreamError.unsupported("a \(packet.codec.rawValue) packet on a \(codec.rawValue) track")
        }
        remember(packet.formatDescription)
        if codec == .aac { return try packetizeAAC(packet) }
        return try packetizeVideo(packet)
    }

    /// Keeps a format description of the track's codec and its parameter sets as buffers.
    private mutating func remember(_ description: FormatDescription?) {
        guard let description else { return }
        switch (description, codec) {
        case (.h264, .h264), (.h265, .h265):
            parameterSets = description.parameterSets.filter { !$0.isEmpty }.map { MediaBuffer(bytes: $0) }
        case (.aac, .aac): break
        default: return
        }
        formatDescription = description
    }

    // MARK: - Video

    /// One NAL unit: its bytes in a buffer.
    private struct Unit {
        let buffer: MediaBuffer
        let range: Range<Int>
    }

    /// The packets of a video access unit: its NAL units (without delimiters), the remembered
    /// parameter sets first when it is a keyframe without its own, each unit whole or fragmented.
    private mutating func packetizeVideo(_ packet: EncodedPacket) throws(BitstreamError) -> [RTPPacket] {
        let buffer: MediaBuffer
        switch packet.form {
        case .annexB: buffer = packet.payload
        case .lengthPrefixed: buffer = try packet.converted(to: .annexB(parameterSetsInBand: true))
        case .raw: throw BitstreamError.unsupported("\(codec.rawValue) in raw form")
        }
        let hevc = codec == .h265
        var units: [Unit] = []
        var hasParameterSets = false
        var hasRandomAccess = false
        for range in buffer.withUnsafeBytes({ AnnexB.nalUnitRanges(in: $0) }) {
            let first = buffer.withUnsafeBytes { $0[range.lowerBound] }
            if hevc {
                let type = HEVCNALUnitType(rawValue: (first >> 1) & 0x3F)
                if type == .accessUnitDelimiter { continue }
                hasParameterSets = hasParameterSets || type.isParameterSet
                hasRandomAccess = hasRandomAccess || type.isIRAP
            } else {
                let type = H264NALUnitType(rawValue: first)
                if type == .accessUnitDelimiter { continue }
                hasParameterSets = hasParameterSets || type == .sps || type == .pps
                hasRandomAccess = hasRandomAccess || type == .idr
            }
            units.append(Unit(buffer: buffer, range: range))
        }
        guard !units.isEmpty else { return [] }
        let keyframe = packet.isKeyframe || hasRandomAccess
        if keyframe && !hasParameterSets {
            units.insert(contentsOf: parameterSets.map { Unit(buffer: $0, range: 0..<$0.count) }, at: 0)
        }
        let timestamp = timestamp(at: packet.pts)
        var packets: [RTPPacket] = []
        for (index, unit) in units.enumerated() {
            let last = index == units.count - 1
            for (prefix, range, final) in fragments(of: unit) {
                packets.append(
                    RTPPacket(
                        sequenceNumber: takeSequenceNumber(), timestamp: timestamp, marker: last && final,
                        payloadType: payloadType, startsAccessUnit: packets.isEmpty, startsKeyframe: packets.isEmpty && keyframe,
                        presentationTime: packet.pts, prefix: prefix, body: unit.buffer, bodyRange: range))
            }
        }
        return packets
    }

    /// The payloads of one NAL unit: the unit whole when it fits, else fragments (H.264 FU-A,
    /// RFC 6184 §5.8; H.265 FU, RFC 7798 §4.4.3), each with its payload header prefix, its body
    /// range and whether it is the unit's last.
    private func fragments(of unit: Unit) -> [(prefix: [UInt8], range: Range<Int>, last: Bool)] {
        let range = unit.range
        if range.count <= maximumPayloadSize { return [([], range, true)] }
        let hevc = codec == .h265
        let headerSize = hevc ? 2 : 1
        // Larger than the payload size, so longer than its NAL unit header.
        let header = unit.buffer.withUnsafeBytes { Array($0[range.lowerBound..<(range.lowerBound + headerSize)]) }
        let payloadHeader: [UInt8]
        let type: UInt8
        if hevc {
            // F and LayerId's high bit kept, type 49; LayerId's low bits and TID kept.
            payloadHeader = [(header[0] & 0x81) | 49 << 1, header[1]]
            type = (header[0] >> 1) & 0x3F
        } else {
            // F and NRI kept, type 28 (FU-A).
            payloadHeader = [(header[0] & 0xE0) | 28]
            type = header[0] & 0x1F
        }
        let chunk = maximumPayloadSize - payloadHeader.count - 1
        var result: [(prefix: [UInt8], range: Range<Int>, last: Bool)] = []
        var offset = range.lowerBound + headerSize
        while offset < range.upperBound {
            let end = min(offset + chunk, range.upperBound)
            let start: UInt8 = offset == range.lowerBound + headerSize ? 0x80 : 0
            let final: UInt8 = end == range.upperBound ? 0x40 : 0
            result.append((payloadHeader + [start | final | type], offset..<end, final != 0))
            offset = end
        }
        return result
    }

    // MARK: - Audio

    /// The packets of an AAC access unit (RFC 3640 §3.2, AAC-hbr): AU-headers-length 16, then one
    /// AU header (13-bit AU-size, 3-bit AU-index 0), then the unit; a unit too large for one
    /// packet is fragmented, every fragment with the whole unit's size and the marker on the last.
    private mutating func packetizeAAC(_ packet: EncodedPacket) throws(BitstreamError) -> [RTPPacket] {
        guard packet.form == .raw else { throw BitstreamError.unsupported("AAC in \(packet.form) form") }
        let size = packet.byteCount
        guard size > 0 else { return [] }
        guard size <= Self.maximumAACAccessUnit else {
            throw BitstreamError.invalidValue(
                field: "AAC access unit size", value: Int64(size), allowed: "1...\(Self.maximumAACAccessUnit)")
        }
        let headers: [UInt8] = [0, 16, UInt8(size >> 5), UInt8(truncatingIfNeeded: size << 3)]
        let chunk = maximumPayloadSize - headers.count
        let timestamp = timestamp(at: packet.pts)
        var packets: [RTPPacket] = []
        var offset = 0
        while offset < size {
            let end = min(offset + chunk, size)
            packets.append(
                RTPPacket(
                    sequenceNumber: takeSequenceNumber(), timestamp: timestamp, marker: end == size, payloadType: payloadType,
                    startsAccessUnit: offset == 0, startsKeyframe: offset == 0, presentationTime: packet.pts, prefix: headers,
                    body: packet.payload, bodyRange: offset..<end))
            offset = end
        }
        return packets
    }

    /// The next sequence number, advancing the count (wrapping at 65536).
    private mutating func takeSequenceNumber() -> UInt16 {
        defer { nextSequenceNumber &+= 1 }
        return nextSequenceNumber
    }
}
#endif
