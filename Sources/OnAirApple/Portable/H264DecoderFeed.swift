import OnAirBitstream
import OnAirCore

/// What a VTDecompressionSession is fed with, decided from the packets as they come: when to make
/// a new format description (the parameter sets changed), which samples to decode (as 4-byte
/// AVCC, the parameter sets removed) and which to skip (joining mid-GOP, or after a decode error,
/// nothing is decoded before the next IDR). Takes packets in any H.264 form. A pure value.
public struct H264DecoderFeed: Sendable {
    /// One thing for the decoder adapter to do.
    public enum Step: Sendable, Equatable {
        /// Make a format description from these parameter sets (a new session, or one that accepts it).
        case configure(sps: [[UInt8]], pps: [[UInt8]])
        /// Decode this 4-byte-length AVCC sample.
        case decode(sample: [UInt8], pts: MediaTime, dts: MediaTime, isKeyframe: Bool)
        /// Nothing to decode: the reason (no parameter sets yet, waiting for an IDR).
        case skip(reason: String)
    }

    private var sps: [[UInt8]] = []
    private var pps: [[UInt8]] = []
    private var waitingForIDR = true
    /// Packets skipped so far, and format descriptions made.
    public private(set) var skipped = 0, configurations = 0

    /// A feed that waits for parameter sets and an IDR.
    public init() {}

    /// The steps for one packet: a `configure` first when its parameter sets (in-band, or its
    /// `formatDescription`) differ from the ones in force, then `decode` or `skip`.
    package mutating func feed(_ packet: EncodedPacket) throws(BitstreamError) -> [Step] {
        guard packet.codec == .h264 else { throw BitstreamError.unsupported("\(packet.codec.rawValue) in an H.264 decoder") }
        let units: [H264NALUnit]
        switch packet.form {
        case .annexB:
            units = AnnexB.split(packet.data)
        case .lengthPrefixed(let size, _):
            units = try AVCC.units(in: packet.data, lengthSize: size)
        case .raw:
            throw BitstreamError.unsupported("H.264 payload in raw form")
        }
        var newSPS = units.filter { $0.type == .sps }.map(\.bytes)
        var newPPS = units.filter { $0.type == .pps }.map(\.bytes)
        if newSPS.isEmpty, newPPS.isEmpty, let description = packet.formatDescription {
            newSPS = description.sps
            newPPS = description.pps
        }
        var steps: [Step] = []
        let candidateSPS = newSPS.isEmpty ? sps : newSPS
        let candidatePPS = newPPS.isEmpty ? pps : newPPS
        if (candidateSPS != sps || candidatePPS != pps) && !candidateSPS.isEmpty && !candidatePPS.isEmpty {
            sps = candidateSPS
            pps = candidatePPS
            configurations += 1
            waitingForIDR = true
            steps.append(.configure(sps: sps, pps: pps))
        }
        let slices = units.filter { $0.type != .sps && $0.type != .pps && $0.type != .accessUnitDelimiter }
        guard slices.contains(where: { $0.type.isVCL }) else {
            return steps
        }
        let isIDR = slices.contains { $0.type == .idr }
        if sps.isEmpty || pps.isEmpty {
            skipped += 1
            steps.append(.skip(reason: "no parameter sets yet"))
        } else if waitingForIDR && !isIDR {
            skipped += 1
            steps.append(.skip(reason: "waiting for an IDR"))
        } else {
            waitingForIDR = false
            steps.append(
                .decode(sample: try AVCC.sample(from: slices, lengthSize: 4), pts: packet.pts, dts: packet.dts, isKeyframe: isIDR))
        }
        return steps
    }

    /// The decoder failed on a sample: skip until the next IDR.
    public mutating func decodeFailed() {
        waitingForIDR = true
    }
}
