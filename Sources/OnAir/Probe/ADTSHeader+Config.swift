import OnAirBitstream

extension ADTSHeader {
    /// The AudioSpecificConfig this header describes (channel configuration 7 means 8 channels).
    func audioSpecificConfig() throws -> AudioSpecificConfig {
        let channels = channelConfiguration == 7 ? 8 : channelConfiguration
        return try AudioSpecificConfig(audioObjectType: audioObjectType, sampleRate: sampleRate, channels: channels)
    }
}
