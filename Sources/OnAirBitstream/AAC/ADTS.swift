/// Reading and writing ADTS, the self-synchronising AAC transport of `.aac` files and
/// MPEG-TS/Shoutcast audio (ISO/IEC 14496-3 1.A.2, 13818-7 6.2).
public enum ADTS {
    /// Prefixes one raw AAC frame (a raw_data_block, as an encoder or an MP4 sample holds it)
    /// with the ADTS header `config` calls for.
    ///
    /// With `crc` the header carries the ADTS CRC (see `crcStatus(frame:)` for which frames it
    /// can be computed for; others throw `unsupported`). ffmpeg writes `bufferFullness` 0x7FF.
    public static func wrap(
        _ raw: [UInt8], config: AudioSpecificConfig, crc: Bool = false,
        bufferFullness: Int = ADTSHeader.variableBitRateFullness
    ) throws(BitstreamError) -> [UInt8] {
        var header = try ADTSHeader(
            config: config, payloadLength: raw.count, protectionAbsent: !crc,
            bufferFullness: bufferFullness)
        if crc {
            var accumulator = ADTSCRCAccumulator()
            accumulator.update(bytes: header.serialized().prefix(7))
            try ADTSCRCCoverage.accumulate(
                block: raw, channelConfiguration: config.channelConfiguration,
                into: &accumulator)
            header.crc = accumulator.value
        }
        return header.serialized() + raw
    }

    /// Splits one complete ADTS frame into the AudioSpecificConfig it implies and its raw AAC
    /// frame.
    ///
    /// The bytes must be exactly one frame holding one raw_data_block. For channel
    /// configuration 0 the in-band program_config_element (when it comes first in the frame) is
    /// copied into the config, and the raw frame keeps it; encoders such as ffmpeg send it in the
    /// first frame only, so for later frames pass the one seen before as `programConfig`.
    public static func unwrap(_ frame: [UInt8], programConfig: ProgramConfigElement? = nil) throws(BitstreamError)
        -> (config: AudioSpecificConfig, raw: [UInt8])
    {
        let header = try ADTSHeader(parsing: frame)
        guard frame.count >= header.frameLength else {
            throw .truncated("ADTS frame (\(frame.count) of \(header.frameLength) bytes)")
        }
        guard frame.count == header.frameLength else {
            throw .malformed("\(frame.count - header.frameLength) bytes after the ADTS frame")
        }
        guard header.numberOfRawDataBlocks == 1 else {
            throw .unsupported("ADTS frame with \(header.numberOfRawDataBlocks) raw_data_blocks")
        }
        let raw = Array(frame[header.headerLength...])
        var pce: ProgramConfigElement?
        if header.channelConfiguration == 0 {
            var reader = AACFieldReader(raw)
            if try reader.read(3, "id_syn_ele") == AACSyntaxElement.programConfig {
                pce = try ProgramConfigElement.parse(from: &reader)
            } else {
                pce = programConfig
            }
            guard pce != nil else {
                throw .unsupported("channel configuration 0 without a program_config_element in the frame")
            }
        }
        let config = try AudioSpecificConfig(
            audioObjectType: header.audioObjectType,
            samplingFrequencyIndex: header.samplingFrequencyIndex,
            channelConfiguration: header.channelConfiguration, programConfig: pce)
        return (config, raw)
    }
}
