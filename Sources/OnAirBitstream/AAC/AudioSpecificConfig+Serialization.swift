extension AudioSpecificConfig {
    /// The config's bytes: the inverse of `init(parsing:)` (zero-padded to a whole byte).
    public func serialized() -> [UInt8] {
        var writer = BitWriter()
        if extensionSignalling == .explicitHierarchical {
            Self.writeObjectType(extensionAudioObjectType ?? 5, to: &writer)
        } else {
            Self.writeObjectType(audioObjectType, to: &writer)
        }
        Self.writeFrequency(index: samplingFrequencyIndex, rate: samplingFrequency, to: &writer)
        writer.write(channelConfiguration, bits: 4)
        if extensionSignalling == .explicitHierarchical {
            Self.writeFrequency(
                index: extensionSamplingFrequencyIndex ?? 0, rate: extensionSamplingFrequency ?? 0,
                to: &writer)
            Self.writeObjectType(audioObjectType, to: &writer)
            if audioObjectType == 22 { writer.write(extensionChannelConfiguration ?? 0, bits: 4) }
        }
        if let otherSpecificConfig {
            otherSpecificConfig.write(to: &writer)
            writer.alignWithZeros()
            return writer.bytes
        }
        writeGeneralAudioConfig(to: &writer)
        if let errorProtectionConfig { writer.write(errorProtectionConfig, bits: 2) }
        if let directMapping { writer.write(directMapping) }
        if extensionSignalling == .syncExtension { writeSyncExtension(to: &writer) }
        trailingBits.write(to: &writer)
        writer.alignWithZeros()
        return writer.bytes
    }

    /// Writes GASpecificConfig.
    private func writeGeneralAudioConfig(to writer: inout BitWriter) {
        writer.write(frameLengthFlag)
        writer.write(dependsOnCoreCoder)
        if let coreCoderDelay { writer.write(coreCoderDelay, bits: 14) }
        writer.write(extensionFlag)
        programConfig?.write(to: &writer)
        if let layerNumber { writer.write(layerNumber, bits: 3) }
        gaExtension?.write(to: &writer)
    }

    /// Writes the backward-compatible 0x2b7 sync extension (and 0x548 PS sync when present).
    private func writeSyncExtension(to writer: inout BitWriter) {
        writer.write(Self.sbrSyncWord, bits: 11)
        let type = extensionAudioObjectType ?? 5
        Self.writeObjectType(type, to: &writer)
        if type == 5 || type == 22 {
            writer.write(sbrPresent == true)
            if sbrPresent == true {
                Self.writeFrequency(
                    index: extensionSamplingFrequencyIndex ?? 0,
                    rate: extensionSamplingFrequency ?? 0, to: &writer)
                if type == 5, let psPresent {
                    writer.write(Self.psSyncWord, bits: 11)
                    writer.write(psPresent)
                }
            }
            if type == 22 { writer.write(extensionChannelConfiguration ?? 0, bits: 4) }
        }
    }

    /// Writes GetAudioObjectType()'s encoding of `type`.
    static func writeObjectType(_ type: Int, to writer: inout BitWriter) {
        if type >= 31 {
            writer.write(31, bits: 5)
            writer.write(type - 32, bits: 6)
        } else {
            writer.write(type, bits: 5)
        }
    }

    /// Writes a sampling-frequency index and, for index 15, the explicit rate.
    static func writeFrequency(index: Int, rate: Int, to writer: inout BitWriter) {
        writer.write(index, bits: 4)
        if index == AACSamplingFrequency.explicitIndex { writer.write(rate, bits: 24) }
    }
}
