import OnAirBitstream

/// libFuzzer entry point: splits the input as an Annex-B stream, groups the units into access units
/// and parses every unit as SPS, PPS, slice header and SEI. Checks that no unit is lost by the
/// splitter and that joining the units and splitting again gives the same units.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let ranges = AnnexB.nalUnitRanges(in: bytes)
    for range in ranges where range.isEmpty || range.lowerBound < 3 || range.upperBound > bytes.count {
        fatalError("AnnexB.nalUnitRanges returned an empty or out-of-bounds range")
    }
    let units = AnnexB.split(bytes)
    var splitter = H264AccessUnitSplitter()
    var accessUnits: [H264AccessUnit] = []
    for unit in units {
        accessUnits += splitter.push(unit)
        let sets = splitter.parameterSets
        _ = try? H264SPS(unit)
        _ = try? H264PPS(unit, spsLookup: { sets.sps[$0] })
        _ = try? H264SliceHeader(unit, parameterSets: sets)
        _ = try? H264SEIMessage.messages(in: unit)
    }
    accessUnits += splitter.finish()
    guard accessUnits.flatMap(\.units) == units else {
        fatalError("the access unit splitter lost or reordered units")
    }
    for accessUnit in accessUnits {
        _ = accessUnit.isRandomAccessPoint
        guard accessUnit.damagedUnits <= accessUnit.units.count else { fatalError("damage count too high") }
    }
    guard AnnexB.split(AnnexB.join(units)) == units else {
        fatalError("AnnexB.join then split changed the units")
    }
    return 0
}
