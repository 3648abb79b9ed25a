import OnAirCore

extension EncodedPacket {
    /// An H.265 payload in `target` form, made once and shared (see `converted(to:)`): Annex-B and
    /// length-prefixed (`hvc1`) samples, with the parameter sets kept or left out; access-unit
    /// delimiters are kept in Annex-B only.
    func convertedHEVC(to target: BitstreamForm) throws(BitstreamError) -> MediaBuffer {
        do {
            return try conversions.payload(in: target) { () throws -> MediaBuffer in
                let units: [HEVCNALUnit]
                switch form {
                case .annexB:
                    units = payload.withUnsafeBytes { bytes in
                        AnnexB.nalUnitRanges(in: bytes).compactMap { try? HEVCNALUnit(Array(UnsafeRawBufferPointer(rebasing: bytes[$0]))) }
                    }
                case .lengthPrefixed(let size, _): units = try HEVCByteStream.units(inSample: payload.bytes, lengthSize: size)
                case .raw: throw BitstreamError.unsupported("H.265 payload in raw form")
                }
                func keeping(_ inBand: Bool, delimiters: Bool) -> [HEVCNALUnit] {
                    units.filter { (delimiters || $0.type != .accessUnitDelimiter) && (inBand || !$0.type.isParameterSet) }
                }
                switch target {
                case .annexB(let inBand): return MediaBuffer(bytes: HEVCByteStream.joinAnnexB(keeping(inBand, delimiters: true)))
                case .lengthPrefixed(let size, let inBand):
                    return MediaBuffer(bytes: try HEVCByteStream.sample(from: keeping(inBand, delimiters: false), lengthSize: size))
                case .raw: throw BitstreamError.unsupported("H.265 in raw form")
                }
            }
        } catch let error as BitstreamError {
            throw error
        } catch {
            throw BitstreamError.malformed("\(error)")
        }
    }
}
