extension AudioSpecificConfig {
    /// Object types whose config is a GASpecificConfig.
    static let generalAudioTypes: Set<Int> = [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23]
    /// Object types followed by epConfig.
    static let errorResilientTypes: Set<Int> = [17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 39]
    /// The sync word of backward-compatible SBR signalling.
    static let sbrSyncWord = 0x2B7
    /// The sync word of backward-compatible PS signalling.
    static let psSyncWord = 0x548

    /// Parses an AudioSpecificConfig from `bytes`.
    ///
    /// General-audio object types (AAC Main/LC/SSR/LTP, scalable, ER AAC, LD) are interpreted
    /// field by field, with explicit hierarchical (object type 5/29) and backward-compatible
    /// (0x2b7 / 0x548 sync extension) SBR/PS signalling; other object types (ELD, CELP, …) keep
    /// their specific config verbatim. Error-protection configs (epConfig 2/3) are unsupported.
    public init(parsing bytes: [UInt8]) throws(BitstreamError) {
        var reader = AACFieldReader(bytes)
        var objectType = try Self.readObjectType(&reader)
        guard objectType != 0 else {
            throw .invalidValue(field: "audioObjectType", value: 0, allowed: "1...95")
        }
        let (index, frequency) = try Self.readFrequency(&reader, "samplingFrequencyIndex")
        let channelConfiguration = try reader.read(4, "channelConfiguration")
        var signalling = AACExtensionSignalling.none
        var extensionType: Int?, sbr: Bool?, ps: Bool?
        var extensionIndex: Int?, extensionFrequency: Int?, extensionChannels: Int?
        if objectType == 5 || objectType == 29 {
            signalling = .explicitHierarchical
            extensionType = objectType
            sbr = true
            ps = objectType == 29 ? true : nil
            (extensionIndex, extensionFrequency) = try Self.readFrequency(&reader, "extensionSamplingFrequencyIndex")
            objectType = try Self.readObjectType(&reader)
            if objectType == 22 { extensionChannels = try reader.read(4, "extensionChannelConfiguration") }
        }
        guard Self.generalAudioTypes.contains(objectType) else {
            let rest = try reader.readBits(reader.bitsLeft, "specific config")
            let lowDelayFlag = objectType == 39 && rest.count > 0 && rest.bytes[0] & 0x80 != 0
            self.init(
                audioObjectType: objectType, samplingFrequencyIndex: index, samplingFrequency: frequency,
                channelConfiguration: channelConfiguration, frameLengthFlag: lowDelayFlag,
                extensionSignalling: signalling, extensionAudioObjectType: extensionType, sbrPresent: sbr,
                extensionSamplingFrequencyIndex: extensionIndex, extensionSamplingFrequency: extensionFrequency,
                psPresent: ps, extensionChannelConfiguration: extensionChannels, otherSpecificConfig: rest)
            return
        }
        // GASpecificConfig
        let frameLengthFlag = try reader.flag("frameLengthFlag")
        let dependsOnCoreCoder = try reader.flag("dependsOnCoreCoder")
        let coreCoderDelay = dependsOnCoreCoder ? try reader.read(14, "coreCoderDelay") : nil
        let extensionFlag = try reader.flag("extensionFlag")
        let pce = channelConfiguration == 0 ? try ProgramConfigElement.parse(from: &reader) : nil
        let layer = objectType == 6 || objectType == 20 ? try reader.read(3, "layerNr") : nil
        let gaExtension =
            extensionFlag
            ? try GASpecificExtension.parse(from: &reader, audioObjectType: objectType) : nil
        var epConfig: Int?, directMapping: Bool?
        if Self.errorResilientTypes.contains(objectType) {
            let value = try reader.read(2, "epConfig")
            guard value < 2 else { throw .unsupported("ErrorProtectionSpecificConfig (epConfig \(value))") }
            epConfig = value
        }
        if signalling == .none, reader.bitsLeft >= 16, reader.peek(11) == Self.sbrSyncWord {
            try reader.skip(11, "syncExtensionType")
            signalling = .syncExtension
            let type = try Self.readObjectType(&reader)
            extensionType = type
            if type == 5 {
                sbr = try reader.flag("sbrPresentFlag")
                if sbr == true {
                    (extensionIndex, extensionFrequency) = try Self.readFrequency(
                        &reader, "extensionSamplingFrequencyIndex")
                    if reader.bitsLeft >= 12, reader.peek(11) == Self.psSyncWord {
                        try reader.skip(11, "syncExtensionType")
                        ps = try reader.flag("psPresentFlag")
                    }
                }
            } else if type == 22 {
                sbr = try reader.flag("sbrPresentFlag")
                if sbr == true {
                    (extensionIndex, extensionFrequency) = try Self.readFrequency(
                        &reader, "extensionSamplingFrequencyIndex")
                }
                extensionChannels = try reader.read(4, "extensionChannelConfiguration")
            }
        }
        var trailing = try reader.readBits(reader.bitsLeft, "trailing bits")
        if trailing.count < 8, trailing.isAllZero { trailing = AACBitString() }
        self.init(
            audioObjectType: objectType, samplingFrequencyIndex: index, samplingFrequency: frequency,
            channelConfiguration: channelConfiguration, frameLengthFlag: frameLengthFlag,
            dependsOnCoreCoder: dependsOnCoreCoder, coreCoderDelay: coreCoderDelay,
            extensionFlag: extensionFlag, programConfig: pce, layerNumber: layer, gaExtension: gaExtension,
            errorProtectionConfig: epConfig, directMapping: directMapping, extensionSignalling: signalling,
            extensionAudioObjectType: extensionType, sbrPresent: sbr,
            extensionSamplingFrequencyIndex: extensionIndex, extensionSamplingFrequency: extensionFrequency,
            psPresent: ps, extensionChannelConfiguration: extensionChannels, trailingBits: trailing)
    }

    /// Reads GetAudioObjectType(): 5 bits, escaped to 32 + 6 bits by 31.
    static func readObjectType(_ reader: inout AACFieldReader) throws(BitstreamError) -> Int {
        let type = try reader.read(5, "audioObjectType")
        return type == 31 ? 32 + (try reader.read(6, "audioObjectTypeExt")) : type
    }

    /// Reads a sampling-frequency index and, for index 15, the explicit 24-bit rate.
    static func readFrequency(_ reader: inout AACFieldReader, _ field: String) throws(BitstreamError)
        -> (index: Int, rate: Int)
    {
        let index = try reader.read(4, field)
        if index == AACSamplingFrequency.explicitIndex {
            let rate = try reader.read(24, "explicit sampling frequency")
            guard rate > 0 else { throw .invalidValue(field: "explicit sampling frequency", value: 0, allowed: "1...16777215") }
            return (index, rate)
        }
        guard let rate = AACSamplingFrequency.rate(forIndex: index) else {
            throw .invalidValue(field: field, value: Int64(index), allowed: "0...12, 15")
        }
        return (index, rate)
    }
}
