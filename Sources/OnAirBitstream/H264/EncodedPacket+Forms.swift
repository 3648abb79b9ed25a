import OnAirCore

extension EncodedPacket {
    /// The payload in `target` form: the payload itself when it is already in that form, else a
    /// conversion made once and shared by every sink holding this packet (see `PacketConversions`).
    ///
    /// H.264 converts between Annex-B and length-prefixed forms, with parameter sets kept or left
    /// out; other codecs only have their own form.
    package func converted(to target: BitstreamForm) throws(BitstreamError) -> MediaBuffer {
        if target == form { return payload }
        if codec == .h265 { return try convertedHEVC(to: target) }
        guard codec == .h264 else {
            throw BitstreamError.unsupported("\(codec.rawValue) in \(target) form (it is \(form))")
        }
        do {
            return try conversions.payload(in: target) { () throws -> MediaBuffer in
                let units = try nalUnits()
                switch target {
                case .annexB(let inBand):
                    return MediaBuffer(bytes: AnnexB.join(accessUnit: Self.keeping(units, parameterSets: inBand, delimiters: true)))
                case .lengthPrefixed(let size, let inBand):
                    return MediaBuffer(
                        bytes: try AVCC.sample(from: Self.keeping(units, parameterSets: inBand, delimiters: false), lengthSize: size))
                case .raw:
                    throw BitstreamError.unsupported("H.264 in raw form")
                }
            }
        } catch let error as BitstreamError {
            throw error
        } catch {
            throw BitstreamError.malformed("\(error)")
        }
    }

    /// The payload's NAL units, read in place.
    private func nalUnits() throws(BitstreamError) -> [H264NALUnit] {
        switch form {
        case .annexB:
            return payload.withUnsafeBytes { bytes in
                AnnexB.nalUnitRanges(in: bytes).compactMap { range in
                    try? H264NALUnit(Array(UnsafeRawBufferPointer(rebasing: bytes[range])))
                }
            }
        case .lengthPrefixed(let size, _):
            return try AVCC.units(in: payload.bytes, lengthSize: size)
        case .raw:
            throw BitstreamError.unsupported("H.264 payload in raw form")
        }
    }

    /// `units` without SPS/PPS unless `parameterSets`, without access-unit delimiters unless `delimiters`.
    private static func keeping(_ units: [H264NALUnit], parameterSets: Bool, delimiters: Bool) -> [H264NALUnit] {
        units.filter {
            (delimiters || $0.type != .accessUnitDelimiter) && (parameterSets || ($0.type != .sps && $0.type != .pps))
        }
    }
}
