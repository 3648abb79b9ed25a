import OnAirBitstream

/// libFuzzer entry point for `avcC` records and AVCC samples.
///
/// The input is parsed as an `avcC` payload, which must re-serialize and parse back to the same
/// record. It is also read as an AVCC sample after its first byte, whose low two bits pick the
/// length size (1, 2, 3 or 4; 3 must be rejected); samples that parse must rebuild byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let record = try? AVCDecoderConfigurationRecord(parsing: bytes) {
        let serialized = record.serialized()
        guard let reparsed = try? AVCDecoderConfigurationRecord(parsing: serialized), reparsed == record else {
            fatalError("avcC parse -> serialize -> parse changed the record")
        }
        guard serialized.count == bytes.count else { fatalError("avcC serialization changed the length") }
        var sets = H264ParameterSets()
        for unit in record.sequenceParameterSets + record.pictureParameterSets {
            try? sets.update(with: unit)
        }
        _ = try? AVCDecoderConfigurationRecord(
            sps: record.sequenceParameterSets, pps: record.pictureParameterSets,
            lengthSize: record.lengthSize)
    }
    guard let first = bytes.first else { return 0 }
    let lengthSize = Int(first & 0x03) + 1
    let sample = Array(bytes.dropFirst())
    guard let units = try? AVCC.units(in: sample, lengthSize: lengthSize) else { return 0 }
    guard lengthSize != 3 else { fatalError("a 3-byte AVCC length size was accepted") }
    guard let rebuilt = try? AVCC.sample(from: units, lengthSize: lengthSize), rebuilt == sample else {
        fatalError("AVCC units -> sample did not rebuild the input")
    }
    guard let annexB = try? AVCC.toAnnexB(sample, lengthSize: lengthSize) else {
        fatalError("AVCC.toAnnexB failed on a sample that parsed")
    }
    // Units that contain a start-code pattern or end in a zero byte cannot survive Annex-B framing.
    if units.allSatisfy(isAnnexBSafe) {
        guard (try? AVCC.fromAnnexB(annexB, lengthSize: lengthSize)) == sample else {
            fatalError("AVCC -> Annex-B -> AVCC changed the sample")
        }
    }
    return 0
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
