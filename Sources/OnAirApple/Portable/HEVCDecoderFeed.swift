import OnAirBitstream
import OnAirCore

/// The H.265 twin of `H264DecoderFeed`: what a VTDecompressionSession decoding HEVC is fed with,
/// decided from the packets as they come — when to make a new format description (the VPS, SPS
/// or PPS changed), which samples to decode (4-byte length-prefixed, the parameter sets removed)
/// and which to skip (joining mid-GOP, or after a decode error, nothing is decoded before the next
/// IRAP picture: IDR, CRA or BLA). Takes packets in Annex-B or length-prefixed form. A pure value.
public struct HEVCDecoderFeed: Sendable {
    /// One thing for the decoder adapter to do.
    public enum Step: Sendable, Equatable {
        /// Make a format description from these parameter sets, VPS first, then SPS, then PPS (as
        /// `CMVideoFormatDescriptionCreateFromHEVCParameterSets` takes them).
        case configure(parameterSets: [[UInt8]])
        /// Decode this 4-byte-length sample.
        case decode(sample: [UInt8], pts: MediaTime, dts: MediaTime, isKeyframe: Bool)
        /// Nothing to decode: the reason (no parameter sets yet, waiting for an IRAP picture).
        case skip(reason: String)
    }

    private var vps: [[UInt8]] = [], sps: [[UInt8]] = [], pps: [[UInt8]] = []
    private var waitingForIRAP = true
    /// Packets skipped so far, and format descriptions made.
    public private(set) var skipped = 0, configurations = 0

    /// A feed that waits for parameter sets and an IRAP picture.
    public init() {}

    /// The steps for one packet: a `configure` first when its parameter sets (in band, or its
    /// `formatDescription`) differ from the ones in force, then `decode` or `skip`.
    package mutating func feed(_ packet: EncodedPacket) throws(BitstreamError) -> [Step] {
        guard packet.codec == .h265 else { throw BitstreamError.unsupported("\(packet.codec.rawValue) in an H.265 decoder") }
        let units: [HEVCNALUnit]
        switch packet.form {
        case .annexB:
            units = HEVCByteStream.split(packet.data)
        case .lengthPrefixed(let size, _):
            units = try HEVCByteStream.units(inSample: packet.data, lengthSize: size)
        case .raw:
            throw BitstreamError.unsupported("H.265 payload in raw form")
        }
        func bytes(_ type: HEVCNALUnitType) -> [[UInt8]] { units.filter { $0.type == type }.map(\.bytes) }
        var inBand = (vps: bytes(.vps), sps: bytes(.sps), pps: bytes(.pps))
        if inBand.vps.isEmpty, inBand.sps.isEmpty, inBand.pps.isEmpty, case .h265(let v, let s, let p)? = packet.formatDescription {
            inBand = (v, s, p)
        }
        let candidate = (
            vps: inBand.vps.isEmpty ? vps : inBand.vps, sps: inBand.sps.isEmpty ? sps : inBand.sps,
            pps: inBand.pps.isEmpty ? pps : inBand.pps
        )
        var steps: [Step] = []
        let complete = !candidate.vps.isEmpty && !candidate.sps.isEmpty && !candidate.pps.isEmpty
        if complete && (candidate.vps != vps || candidate.sps != sps || candidate.pps != pps) {
            (vps, sps, pps) = candidate
            configurations += 1
            waitingForIRAP = true
            steps.append(.configure(parameterSets: vps + sps + pps))
        }
        let pictures = units.filter { !$0.type.isParameterSet && $0.type != .accessUnitDelimiter }
        guard let firstSlice = pictures.first(where: { $0.type.isVCL }) else { return steps }
        let isIRAP = firstSlice.type.isIRAP
        if vps.isEmpty || sps.isEmpty || pps.isEmpty {
            skipped += 1
            steps.append(.skip(reason: "no parameter sets yet"))
        } else if waitingForIRAP && !isIRAP {
            skipped += 1
            steps.append(.skip(reason: "waiting for an IRAP picture"))
        } else {
            waitingForIRAP = false
            steps.append(
                .decode(
                    sample: try HEVCByteStream.sample(from: pictures, lengthSize: 4), pts: packet.pts, dts: packet.dts,
                    isKeyframe: isIRAP))
        }
        return steps
    }

    /// The decoder failed on a sample: skip until the next IRAP picture.
    public mutating func decodeFailed() {
        waitingForIRAP = true
    }
}
