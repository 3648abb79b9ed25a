import OnAirBitstream

/// libFuzzer entry point for the H.265 readers: the input as an Annex-B byte stream (split, access
/// units, join), as a length-prefixed sample of each length size, as an SPS unit and RBSP, and as
/// an `hvcC` record; whatever parses must write back to what it was read from.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let units = HEVCByteStream.split(bytes)
    guard HEVCByteStream.accessUnits(units).flatMap({ $0 }) == units else { fatalError("access units lost units") }
    guard HEVCByteStream.split(HEVCByteStream.joinAnnexB(units)) == units else { fatalError("Annex-B join changed the units") }
    for unit in units where unit.type == .sps {
        if let sps = try? HEVCSPS(unit) { check(sps) }
    }
    for lengthSize in [1, 2, 4] {
        guard let sample = try? HEVCByteStream.units(inSample: bytes, lengthSize: lengthSize) else { continue }
        guard (try? HEVCByteStream.sample(from: sample, lengthSize: lengthSize)) == bytes else {
            fatalError("length-prefixed sample did not write back")
        }
        _ = try? HEVCByteStream.annexB(fromSample: bytes, lengthSize: lengthSize, parameterSets: units)
    }
    if let sps = try? HEVCSPS(rbsp: bytes) { check(sps) }
    if let record = try? HEVCDecoderConfigurationRecord(parsing: bytes) {
        guard (try? HEVCDecoderConfigurationRecord(parsing: record.serialized())) == record else {
            fatalError("hvcC did not parse back")
        }
        if let built = try? HEVCDecoderConfigurationRecord(units: record.arrays.flatMap(\.units)) {
            _ = built.serialized()
        }
    }
    return 0
}

/// Checks the derived SPS values' invariants.
func check(_ sps: HEVCSPS) {
    guard sps.width > 0, sps.height > 0, sps.width <= sps.codedWidth, sps.height <= sps.codedHeight else {
        fatalError("HEVC conformance window produced an impossible size")
    }
    _ = sps.profileTierLevel.profileName
    _ = sps.profileTierLevel.levelName
    _ = sps.frameRate
}
