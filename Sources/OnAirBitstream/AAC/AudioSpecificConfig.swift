/// An MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1): what a decoder needs to know about
/// an AAC stream, as carried in an MP4 `esds` box, FLV/RTMP sequence headers or SDP.
///
/// Parsing keeps every bit, including how SBR/PS is signalled and any unparsed tail, so
/// `serialized()` reproduces the parsed bytes exactly.
public struct AudioSpecificConfig: Sendable, Equatable {
    /// The core audio object type (2 = AAC LC); with explicit SBR/PS signalling this is the type
    /// that follows the 5 or 29, which is kept in `extensionAudioObjectType`.
    public let audioObjectType: Int
    /// The sampling-frequency index, 0…12, or 15 when `samplingFrequency` is explicit.
    public let samplingFrequencyIndex: Int
    /// The core sampling rate in Hz.
    public let samplingFrequency: Int
    /// The channel configuration, 0…15; 0 means `programConfig` describes the layout.
    public let channelConfiguration: Int
    /// GASpecificConfig frameLengthFlag: 960 (or 480 for LD/ELD) instead of 1024 (512) samples.
    public let frameLengthFlag: Bool
    /// GASpecificConfig dependsOnCoreCoder.
    public let dependsOnCoreCoder: Bool
    /// GASpecificConfig coreCoderDelay (14 bits), present when `dependsOnCoreCoder`.
    public let coreCoderDelay: Int?
    /// GASpecificConfig extensionFlag.
    public let extensionFlag: Bool
    /// The program_config_element carried when `channelConfiguration` is 0.
    public let programConfig: ProgramConfigElement?
    /// GASpecificConfig layerNr, for object types 6 and 20.
    public let layerNumber: Int?
    /// The GASpecificConfig fields after `extensionFlag == 1`.
    public let gaExtension: GASpecificExtension?
    /// epConfig, for error-resilient object types.
    public let errorProtectionConfig: Int?
    /// directMapping, present when `errorProtectionConfig` is 3.
    public let directMapping: Bool?
    /// How SBR/PS is signalled.
    public let extensionSignalling: AACExtensionSignalling
    /// The extension object type: 5 (SBR) or 29 (PS) with explicit hierarchical signalling, the
    /// type after the 0x2b7 sync word with backward-compatible signalling, else `nil`.
    public let extensionAudioObjectType: Int?
    /// Whether SBR is present, when signalled.
    public let sbrPresent: Bool?
    /// The extension (SBR output) sampling-frequency index, when signalled.
    public let extensionSamplingFrequencyIndex: Int?
    /// The extension (SBR output) sampling rate in Hz, when signalled.
    public let extensionSamplingFrequency: Int?
    /// Whether parametric stereo is present, when signalled (object type 29, or the 0x548 sync).
    public let psPresent: Bool?
    /// extensionChannelConfiguration, signalled with ER BSAC (object type 22).
    public let extensionChannelConfiguration: Int?
    /// The object-type-specific config kept verbatim for types this parser does not interpret
    /// (anything but general audio), which also holds everything after it.
    public let otherSpecificConfig: AACBitString?
    /// Bits after everything parsed (other than a zero byte-alignment pad), kept verbatim.
    public let trailingBits: AACBitString

    /// Creates a config from every stored field.
    init(
        audioObjectType: Int, samplingFrequencyIndex: Int, samplingFrequency: Int, channelConfiguration: Int,
        frameLengthFlag: Bool = false, dependsOnCoreCoder: Bool = false, coreCoderDelay: Int? = nil,
        extensionFlag: Bool = false, programConfig: ProgramConfigElement? = nil, layerNumber: Int? = nil,
        gaExtension: GASpecificExtension? = nil, errorProtectionConfig: Int? = nil, directMapping: Bool? = nil,
        extensionSignalling: AACExtensionSignalling = .none, extensionAudioObjectType: Int? = nil,
        sbrPresent: Bool? = nil, extensionSamplingFrequencyIndex: Int? = nil,
        extensionSamplingFrequency: Int? = nil, psPresent: Bool? = nil,
        extensionChannelConfiguration: Int? = nil, otherSpecificConfig: AACBitString? = nil,
        trailingBits: AACBitString = AACBitString()
    ) {
        self.audioObjectType = audioObjectType
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.samplingFrequency = samplingFrequency
        self.channelConfiguration = channelConfiguration
        self.frameLengthFlag = frameLengthFlag
        self.dependsOnCoreCoder = dependsOnCoreCoder
        self.coreCoderDelay = coreCoderDelay
        self.extensionFlag = extensionFlag
        self.programConfig = programConfig
        self.layerNumber = layerNumber
        self.gaExtension = gaExtension
        self.errorProtectionConfig = errorProtectionConfig
        self.directMapping = directMapping
        self.extensionSignalling = extensionSignalling
        self.extensionAudioObjectType = extensionAudioObjectType
        self.sbrPresent = sbrPresent
        self.extensionSamplingFrequencyIndex = extensionSamplingFrequencyIndex
        self.extensionSamplingFrequency = extensionSamplingFrequency
        self.psPresent = psPresent
        self.extensionChannelConfiguration = extensionChannelConfiguration
        self.otherSpecificConfig = otherSpecificConfig
        self.trailingBits = trailingBits
    }

    /// Creates the minimal config for a general-audio stream (2 bytes, no SBR signalling).
    ///
    /// `audioObjectType` must be 1…4, `sampleRate` one of the 13 indexed rates, and `channels`
    /// 1…6 or 8 (channel configuration 7); 7 channels have no channel configuration.
    public init(audioObjectType: Int = 2, sampleRate: Int, channels: Int) throws(BitstreamError) {
        guard let index = AACSamplingFrequency.index(for: sampleRate) else {
            throw .invalidValue(
                field: "sampleRate", value: Int64(sampleRate),
                allowed: AACSamplingFrequency.table.map(String.init).joined(separator: ", "))
        }
        let configuration: Int
        switch channels {
        case 1...6: configuration = channels
        case 8: configuration = 7
        default:
            throw .invalidValue(field: "channels", value: Int64(channels), allowed: "1...6, 8")
        }
        try self.init(
            audioObjectType: audioObjectType, samplingFrequencyIndex: index,
            channelConfiguration: configuration)
    }

    /// Creates the minimal general-audio config for an indexed rate and a channel configuration
    /// (a `programConfig` is required exactly when the configuration is 0).
    init(
        audioObjectType: Int, samplingFrequencyIndex: Int, channelConfiguration: Int,
        programConfig: ProgramConfigElement? = nil
    ) throws(BitstreamError) {
        guard (1...4).contains(audioObjectType) else {
            throw .unsupported("audio object type \(audioObjectType) (1...4 are supported here)")
        }
        guard let rate = AACSamplingFrequency.rate(forIndex: samplingFrequencyIndex) else {
            throw .invalidValue(
                field: "samplingFrequencyIndex", value: Int64(samplingFrequencyIndex),
                allowed: "0...12")
        }
        guard (0...7).contains(channelConfiguration), (channelConfiguration == 0) == (programConfig != nil) else {
            throw .invalidValue(
                field: "channelConfiguration", value: Int64(channelConfiguration),
                allowed: "1...7, or 0 with a program_config_element")
        }
        self.init(
            audioObjectType: audioObjectType, samplingFrequencyIndex: samplingFrequencyIndex,
            samplingFrequency: rate, channelConfiguration: channelConfiguration, programConfig: programConfig)
    }
}
