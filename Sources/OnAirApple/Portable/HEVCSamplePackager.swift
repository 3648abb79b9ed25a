import OnAirBitstream
import OnAirCore

/// The H.265 twin of `H264SamplePackager`: one `hvc1` sample from a VideoToolbox HEVC session
/// (NAL units after 1-, 2- or 4-byte lengths) plus the VPS, SPS and PPS of its format description
/// (as `CMVideoFormatDescriptionGetHEVCParameterSetAtIndex` lists them) → an `EncodedPacket`:
/// Annex-B with the parameter sets before every IRAP picture, or length-prefixed with them in the
/// format description (the `hvcC` record).
///
/// A keyframe is an IRAP picture (IDR, CRA, BLA), read from the sample's own units. Every length
/// is checked; a malformed sample throws `BitstreamError`.
public struct HEVCSamplePackager: Sendable {
    /// The form packets are made in.
    package let outputForm: BitstreamForm

    /// Creates a packager writing `outputForm` (Annex-B with parameter sets in band by default).
    package init(outputForm: BitstreamForm = .annexB(parameterSetsInBand: true)) throws(BitstreamError) {
        switch outputForm {
        case .annexB: break
        case .lengthPrefixed(let size, _):
            guard AVCC.allowedLengthSizes.contains(size) else {
                throw BitstreamError.invalidValue(field: "hvc1 length size", value: Int64(size), allowed: "1, 2 or 4")
            }
        case .raw: throw BitstreamError.unsupported("H.265 in raw form")
        }
        self.outputForm = outputForm
    }

    /// The packet for one encoded sample whose format description lists `parameterSets` (VPS,
    /// SPS and PPS in any order; any other unit is refused).
    package func packet(
        sample: [UInt8], lengthSize: Int, parameterSets: [[UInt8]], pts: MediaTime, dts: MediaTime? = nil,
        duration: MediaTime
    ) throws(BitstreamError) -> EncodedPacket {
        var sets: [HEVCNALUnit] = []
        for bytes in parameterSets {
            let unit = try HEVCNALUnit(bytes)
            guard unit.type.isParameterSet else { throw BitstreamError.malformed("a \(unit.type) among the parameter sets") }
            sets.append(unit)
        }
        // VPS, SPS, PPS: the order a decoder needs them in.
        sets.sort { $0.type.rawValue < $1.type.rawValue }
        // Parameter sets travel in the format description; any in the sample are dropped.
        let units = try HEVCByteStream.units(inSample: sample, lengthSize: lengthSize).filter { !$0.type.isParameterSet }
        guard let firstSlice = units.first(where: { $0.type.isVCL }) else {
            throw BitstreamError.malformed("encoded sample without a slice")
        }
        let isKeyframe = firstSlice.type.isIRAP
        let kinds = Set(sets.map(\.type))
        if isKeyframe && !kinds.isSuperset(of: [.vps, .sps, .pps]) {
            throw BitstreamError.malformed("IRAP sample without a VPS, an SPS and a PPS in its format description")
        }
        let bytes: [UInt8]
        switch outputForm {
        case .annexB(let inBand):
            bytes = HEVCByteStream.joinAnnexB(inBand ? HEVCByteStream.withParameterSets(units, sets) : units)
        case .lengthPrefixed(let size, let inBand):
            bytes = try HEVCByteStream.sample(from: inBand ? HEVCByteStream.withParameterSets(units, sets) : units, lengthSize: size)
        case .raw:
            throw BitstreamError.unsupported("H.265 in raw form")
        }
        let description = FormatDescription.h265(
            vps: sets.filter { $0.type == .vps }.map(\.bytes), sps: sets.filter { $0.type == .sps }.map(\.bytes),
            pps: sets.filter { $0.type == .pps }.map(\.bytes))
        return EncodedPacket(
            mediaType: .video, codec: .h265, data: bytes, pts: pts, dts: dts ?? pts, duration: duration,
            isKeyframe: isKeyframe, formatDescription: isKeyframe ? description : nil, form: outputForm)
    }
}
