import OnAirApple
import OnAirBitstream
import OnAirCore

/// libFuzzer entry point for the Apple backend's sample packager and decoder feed.
///
/// The first byte picks the input length size (low two bits: 1, 2, 3 or 4; 3 must be refused)
/// and the output form (next two bits: Annex-B, or AVCC with 1, 2 or 4-byte lengths); the rest is
/// an encoder's sample. A sample that packages must convert back to the same NAL units (the
/// parameter sets before an IDR and nothing else added), and the decoder feed must take the packet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let lengthSize = Int(first & 0x03) + 1
    let forms: [BitstreamForm] = [
        .annexB(parameterSetsInBand: true), .lengthPrefixed(lengthSize: 1, parameterSetsInBand: false),
        .lengthPrefixed(lengthSize: 2, parameterSetsInBand: false), .lengthPrefixed(lengthSize: 4, parameterSetsInBand: true),
    ]
    let form = forms[Int(first >> 2 & 0x03)]
    let sps: [UInt8] = [
        0x67, 0x42, 0xC0, 0x1E, 0xDA, 0x02, 0x80, 0xBF, 0xE5, 0x84, 0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0xC8, 0x3C, 0x58,
        0xBA, 0x80,
    ]
    let pps: [UInt8] = [0x68, 0xCE, 0x0F, 0x2C, 0x80]
    guard let packager = try? H264SamplePackager(outputForm: form) else { fatalError("a valid form was refused") }
    let sample = Array(bytes.dropFirst())
    guard
        let packet = try? packager.packet(
            sample: sample, lengthSize: lengthSize, sps: [sps], pps: [pps], pts: .zero, duration: .zero)
    else { return 0 }
    guard lengthSize != 3 else { fatalError("a 3-byte length size was accepted") }
    guard let input = try? AVCC.units(in: sample, lengthSize: lengthSize) else { fatalError("packaged a sample that does not parse") }
    let slices = input.filter { $0.type != .sps && $0.type != .pps }
    let expected =
        packet.isKeyframe && form != .lengthPrefixed(lengthSize: 1, parameterSetsInBand: false)
            && form != .lengthPrefixed(lengthSize: 2, parameterSetsInBand: false)
        ? H264SamplePackagerOrder.expected(slices, sps: sps, pps: pps) : slices
    switch form {
    case .annexB:
        // Annex-B framing cannot carry units holding a start-code pattern or ending in zero.
        if expected.allSatisfy(isAnnexBSafe), AnnexB.split(packet.data).map(\.bytes) != expected.map(\.bytes) {
            fatalError("Annex-B output does not hold the sample's units")
        }
    case .lengthPrefixed(let size, _):
        guard let units = try? AVCC.units(in: packet.data, lengthSize: size), units == expected else {
            fatalError("AVCC output does not hold the sample's units")
        }
    case .raw:
        fatalError("raw output")
    }
    var feed = H264DecoderFeed()
    _ = try? feed.feed(packet)
    return 0
}

/// Where the packager places parameter sets: after a leading access-unit delimiter, before the rest.
enum H264SamplePackagerOrder {
    static func expected(_ units: [H264NALUnit], sps: [UInt8], pps: [UInt8]) -> [H264NALUnit] {
        let sets = [try? H264NALUnit(sps), try? H264NALUnit(pps)].compactMap { $0 }
        if let first = units.first, first.type == .accessUnitDelimiter { return [first] + sets + units.dropFirst() }
        return sets + units
    }
}

/// Whether a unit survives Annex-B framing: no `00 00 00` or `00 00 01` inside and no final zero.
func isAnnexBSafe(_ unit: H264NALUnit) -> Bool {
    let bytes = unit.bytes
    if bytes.last == 0 { return false }
    var zeros = 0
    for byte in bytes {
        if zeros >= 2 && byte <= 1 { return false }
        zeros = byte == 0 ? zeros + 1 : 0
    }
    return true
}
