extension ADTSHeader {
    /// Builds the header that carries one raw_data_block of `payloadLength` bytes described by
    /// `config`.
    ///
    /// Only what ADTS can express is accepted: audio object types 1…4 (Main, LC, SSR, LTP; an
    /// SBR/PS config is carried as its core object type, i.e. implicit signalling), one of the 13
    /// indexed sampling rates, channel configurations 1…7, and a frame no longer than 8191 bytes.
    /// A protected header gets a zero CRC word; `ADTS.wrap(_:config:crc:)` fills it in.
    public init(
        config: AudioSpecificConfig, payloadLength: Int, protectionAbsent: Bool = true,
        bufferFullness: Int = ADTSHeader.variableBitRateFullness
    ) throws(BitstreamError) {
        guard (1...4).contains(config.audioObjectType) else {
            throw .unsupported("audio object type \(config.audioObjectType) in ADTS (only 1...4 fit the profile field)")
        }
        guard config.samplingFrequencyIndex != AACSamplingFrequency.explicitIndex else {
            throw .unsupported("explicit sampling frequency \(config.samplingFrequency) Hz in ADTS")
        }
        guard AACSamplingFrequency.rate(forIndex: config.samplingFrequencyIndex) != nil else {
            throw .invalidValue(
                field: "samplingFrequencyIndex", value: Int64(config.samplingFrequencyIndex),
                allowed: "0...12")
        }
        guard (1...7).contains(config.channelConfiguration) else {
            throw .unsupported("channel configuration \(config.channelConfiguration) in a written ADTS header (1...7)")
        }
        guard (0...0x7FF).contains(bufferFullness) else {
            throw .invalidValue(field: "adts_buffer_fullness", value: Int64(bufferFullness), allowed: "0...2047")
        }
        let headerLength = Self.headerLength(protectionAbsent: protectionAbsent, rawDataBlocks: 1)
        let maximumPayload = Self.maximumFrameLength - headerLength
        guard (0...maximumPayload).contains(payloadLength) else {
            throw .invalidValue(
                field: "ADTS payload length", value: Int64(payloadLength),
                allowed: "0...\(maximumPayload)")
        }
        self.init(
            mpegVersion: 4, protectionAbsent: protectionAbsent, audioObjectType: config.audioObjectType,
            samplingFrequencyIndex: config.samplingFrequencyIndex,
            channelConfiguration: config.channelConfiguration, frameLength: headerLength + payloadLength,
            bufferFullness: bufferFullness, numberOfRawDataBlocks: 1, crc: protectionAbsent ? nil : 0,
            rawDataBlockPositions: [])
    }

    /// The AudioSpecificConfig that describes this header's stream: object type, sampling
    /// index and channel configuration, 1024-sample frames, no core coder, no extension.
    public func audioSpecificConfig() throws(BitstreamError) -> AudioSpecificConfig {
        try AudioSpecificConfig(
            audioObjectType: audioObjectType, samplingFrequencyIndex: samplingFrequencyIndex,
            channelConfiguration: channelConfiguration)
    }
}
