import OnAirBitstream
import OnAirCore

/// Turns what a VideoToolbox compression session hands out — one AVCC sample (NAL units after
/// 1-, 2- or 4-byte big-endian lengths) plus the parameter sets of its format description — into
/// an `EncodedPacket` in the form the sinks take: Annex-B with SPS/PPS before every IDR, or
/// length-prefixed (AVCC) with the parameter sets in the `formatDescription` (the avcC record).
///
/// Whether a sample is a keyframe is read from its own NAL units (an IDR slice), not taken on
/// trust. Every length is checked; a malformed sample throws `BitstreamError`.
public struct H264SamplePackager: Sendable {
    /// The form packets are made in.
    package let outputForm: BitstreamForm

    /// Creates a packager writing `outputForm`: `.annexB(parameterSetsInBand: true)` (the default,
    /// what every OnAir encoder produces) or `.lengthPrefixed(lengthSize: 1, 2 or 4, …)`.
    package init(outputForm: BitstreamForm = .annexB(parameterSetsInBand: true)) throws(BitstreamError) {
        switch outputForm {
        case .annexB: break
        case .lengthPrefixed(let size, _):
            guard AVCC.allowedLengthSizes.contains(size) else {
                throw BitstreamError.invalidValue(field: "AVCC length size", value: Int64(size), allowed: "1, 2 or 4")
            }
        case .raw: throw BitstreamError.unsupported("H.264 in raw form")
        }
        self.outputForm = outputForm
    }

    /// The packet for one encoded sample.
    ///
    /// - Parameters:
    ///   - sample: the sample's bytes, NAL units after `lengthSize`-byte lengths.
    ///   - lengthSize: the session's NAL unit header length (1, 2 or 4).
    ///   - sps: the sequence parameter sets of the sample's format description.
    ///   - pps: the picture parameter sets of the sample's format description.
    ///   - pts: presentation time; `dts`: decode time (nil: the same as `pts`); `duration`: how long it shows.
    package func packet(
        sample: [UInt8], lengthSize: Int, sps: [[UInt8]], pps: [[UInt8]], pts: MediaTime, dts: MediaTime? = nil,
        duration: MediaTime
    ) throws(BitstreamError) -> EncodedPacket {
        let parsed = try AVCC.units(in: sample, lengthSize: lengthSize)
        // Parameter sets travel separately (the format description); any in the sample are dropped
        // so that they are not written twice.
        let units = parsed.filter { $0.type != .sps && $0.type != .pps }
        guard units.contains(where: { $0.type.isVCL }) else {
            throw BitstreamError.malformed("encoded sample without a slice")
        }
        let isKeyframe = units.contains { $0.type == .idr }
        let spsUnits = try sps.map { (bytes) throws(BitstreamError) in try H264NALUnit(bytes) }
        let ppsUnits = try pps.map { (bytes) throws(BitstreamError) in try H264NALUnit(bytes) }
        if isKeyframe {
            guard spsUnits.contains(where: { $0.type == .sps }), ppsUnits.contains(where: { $0.type == .pps }) else {
                throw BitstreamError.malformed("IDR sample without an SPS and a PPS in its format description")
            }
        }
        let bytes: [UInt8]
        switch outputForm {
        case .annexB(let inBand):
            bytes = AnnexB.join(
                accessUnit: Self.ordered(units, sps: inBand && isKeyframe ? spsUnits : [], pps: inBand && isKeyframe ? ppsUnits : []))
        case .lengthPrefixed(let size, let inBand):
            bytes = try AVCC.sample(
                from: Self.ordered(units, sps: inBand && isKeyframe ? spsUnits : [], pps: inBand && isKeyframe ? ppsUnits : []),
                lengthSize: size)
        case .raw:
            throw BitstreamError.unsupported("H.264 in raw form")
        }
        return EncodedPacket(
            mediaType: .video, codec: .h264, data: bytes, pts: pts, dts: dts ?? pts, duration: duration,
            isKeyframe: isKeyframe, formatDescription: isKeyframe ? .h264(sps: sps, pps: pps) : nil, form: outputForm)
    }

    /// The packet for one encoded sample whose format description's parameter sets come as one
    /// list (as `CMVideoFormatDescriptionGetH264ParameterSetAtIndex` gives them): sorted here into
    /// SPS and PPS by their NAL unit type; other or empty units are refused.
    package func packet(
        sample: [UInt8], lengthSize: Int, parameterSets: [[UInt8]], pts: MediaTime, dts: MediaTime? = nil,
        duration: MediaTime
    ) throws(BitstreamError) -> EncodedPacket {
        var sps: [[UInt8]] = [], pps: [[UInt8]] = []
        for set in parameterSets {
            switch try H264NALUnit(set).type {
            case .sps: sps.append(set)
            case .pps: pps.append(set)
            case let other: throw BitstreamError.malformed("a \(other) among the parameter sets")
            }
        }
        return try packet(sample: sample, lengthSize: lengthSize, sps: sps, pps: pps, pts: pts, dts: dts, duration: duration)
    }

    /// The avcC record (ISO/IEC 14496-15) for the parameter sets, with this packager's length size
    /// (4 for Annex-B output): what an MP4 writer's format description carries.
    public func decoderConfiguration(sps: [[UInt8]], pps: [[UInt8]]) throws(BitstreamError) -> [UInt8] {
        var lengthSize = 4
        if case .lengthPrefixed(let size, _) = outputForm { lengthSize = size }
        let record = try AVCDecoderConfigurationRecord(
            sps: try sps.map { (bytes) throws(BitstreamError) in try H264NALUnit(bytes) },
            pps: try pps.map { (bytes) throws(BitstreamError) in try H264NALUnit(bytes) }, lengthSize: lengthSize)
        return record.serialized()
    }

    /// The units with the parameter sets placed after any access-unit delimiter and SEI that come
    /// first and before the first slice (H.264 7.4.1.2.3 order: AUD, SPS, PPS, SEI, slices).
    static func ordered(_ units: [H264NALUnit], sps: [H264NALUnit], pps: [H264NALUnit]) -> [H264NALUnit] {
        guard !sps.isEmpty || !pps.isEmpty else { return units }
        var output: [H264NALUnit] = []
        var rest = units[...]
        if let first = rest.first, first.type == .accessUnitDelimiter {
            output.append(first)
            rest = rest.dropFirst()
        }
        output.append(contentsOf: sps)
        output.append(contentsOf: pps)
        output.append(contentsOf: rest)
        return output
    }
}
