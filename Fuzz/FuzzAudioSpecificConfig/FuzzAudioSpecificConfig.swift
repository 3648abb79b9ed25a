import OnAirBitstream

/// libFuzzer entry point: parses the input as an AudioSpecificConfig and, when it parses,
/// checks that serializing and re-parsing gives the same config (and the same bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let config = try? AudioSpecificConfig(parsing: bytes) else { return 0 }
    let serialized = config.serialized()
    guard let reparsed = try? AudioSpecificConfig(parsing: serialized), reparsed == config else {
        fatalError("AudioSpecificConfig serialize -> parse changed the config")
    }
    guard reparsed.serialized() == serialized else { fatalError("serialization is not stable") }
    // Only a program_config_element's byte-alignment bits are not kept verbatim.
    if config.programConfig == nil, serialized != bytes { fatalError("serialization is not byte-exact") }
    _ = (config.samplesPerFrame, config.outputSampleRate, config.outputChannels, config.profileName)
    return 0
}
