import OnAirBitstream

/// libFuzzer entry point for the parameter-set and slice-header parsers.
///
/// The whole input is parsed as one NAL unit (SPS, PPS, slice header, SEI) and as a bare RBSP.
/// It is also read as `[spsLength, ppsLength, SPS unit, PPS unit, slice unit]` so that a slice
/// header is parsed with an SPS and PPS taken from the same input (seeds.sh writes that layout).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let unit = try? H264NALUnit(bytes) {
        _ = try? H264SPS(unit)
        _ = try? H264PPS(unit)
        _ = try? H264SEIMessage.messages(in: unit)
        _ = try? H264SliceHeader(unit, parameterSets: H264ParameterSets())
    }
    let sps = try? H264SPS(rbsp: bytes)
    _ = try? H264PPS(rbsp: bytes, spsLookup: { _ in sps })
    if let sps {
        checkDerived(sps)
    }

    guard bytes.count >= 2 else { return 0 }
    let spsEnd = min(bytes.count, 2 + Int(bytes[0]))
    let ppsEnd = min(bytes.count, spsEnd + Int(bytes[1]))
    var sets = H264ParameterSets()
    for part in [bytes[2..<spsEnd], bytes[spsEnd..<ppsEnd]] {
        guard let unit = try? H264NALUnit(part) else { continue }
        let before = sets
        do {
            try sets.update(with: unit)
        } catch {
            guard sets == before else { fatalError("a failed update changed the parameter sets") }
        }
    }
    for parsed in sets.sps.values {
        checkDerived(parsed)
    }
    if let slice = try? H264NALUnit(bytes[ppsEnd...]), let header = try? H264SliceHeader(slice, parameterSets: sets) {
        guard header.sliceType.rawValue == header.sliceTypeRaw % 5, header.bitLength > 0 else {
            fatalError("inconsistent slice header")
        }
        var splitter = H264AccessUnitSplitter()
        splitter.parameterSets = sets
        let accessUnits = splitter.push(slice) + splitter.push(slice) + splitter.finish()
        guard accessUnits.flatMap(\.units) == [slice, slice] else { fatalError("splitter lost units") }
    }
    return 0
}

/// Evaluates the derived SPS values and checks the ones with simple invariants.
func checkDerived(_ sps: H264SPS) {
    guard sps.width > 0, sps.height > 0, sps.width <= sps.codedWidth, sps.height <= sps.codedHeight else {
        fatalError("SPS cropping produced an impossible size")
    }
    _ = sps.profileName
    _ = sps.levelName
    _ = sps.frameRate
    _ = sps.frameRateFraction
    _ = sps.reorderDepth
    if let hrd = sps.vui?.nalHRD {
        _ = hrd.bitRate(cpb: 0)
    }
}
