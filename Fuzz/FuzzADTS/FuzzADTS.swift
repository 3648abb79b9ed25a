import OnAirBitstream

/// libFuzzer entry point: scans the input as an ADTS stream and checks, for every frame found,
/// that its header and frame bytes re-serialize exactly and that unwrap/wrap agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let stream = ADTS.parse(bytes)
    var accounted = stream.skippedBytes
    var programConfig: ProgramConfigElement?
    for frame in stream.frames {
        let header = frame.header
        accounted += header.frameLength
        let headerBytes = header.serialized()
        guard let reparsed = try? ADTSHeader(parsing: headerBytes), reparsed == header else {
            fatalError("ADTS header serialize -> parse changed the header")
        }
        let frameBytes = frame.serialized()
        guard frame.offset >= 0, frame.offset + header.frameLength <= bytes.count,
            Array(bytes[frame.offset..<(frame.offset + header.frameLength)]) == frameBytes
        else {
            fatalError("ADTS frame does not re-serialize to its input bytes")
        }
        _ = ADTS.crcStatus(frame: frameBytes)
        guard let unwrapped = try? ADTS.unwrap(frameBytes, programConfig: programConfig) else { continue }
        let config = unwrapped.config
        programConfig = config.programConfig ?? programConfig
        guard unwrapped.raw == frame.payload else { fatalError("unwrap returned other bytes than the payload") }
        guard let reparsedConfig = try? AudioSpecificConfig(parsing: config.serialized()), reparsedConfig == config else {
            fatalError("AudioSpecificConfig from ADTS does not round-trip")
        }
        for crc in [false, true] {
            guard
                let rewrapped = try? ADTS.wrap(
                    unwrapped.raw, config: config, crc: crc,
                    bufferFullness: header.bufferFullness)
            else { continue }
            guard let again = try? ADTS.unwrap(rewrapped), again.config == config, again.raw == unwrapped.raw else {
                fatalError("wrap -> unwrap is not the identity")
            }
            if crc, !ADTS.verifyCRC(frame: rewrapped) { fatalError("a CRC we wrote does not verify") }
            if !crc, header.protectionAbsent, header.mpegVersion == 4, !header.privateBit, !header.originalCopy,
                !header.home, !header.copyrightIdentificationBit, !header.copyrightIdentificationStart,
                rewrapped != frameBytes
            {
                fatalError("unwrap -> wrap is not byte-exact")
            }
        }
    }
    guard accounted == bytes.count else { fatalError("frames and skipped bytes do not add up to the input") }
    return 0
}
