extension AudioSpecificConfig {
    /// Whether the config signals SBR (explicitly or with the backward-compatible sync word).
    public var hasSBR: Bool { sbrPresent == true }

    /// PCM samples one access unit decodes to: 1024 or 960 (512 or 480 for LD/ELD), doubled by SBR.
    public var samplesPerFrame: Int {
        let lowDelay = audioObjectType == 23 || audioObjectType == 39
        let core = lowDelay ? (frameLengthFlag ? 480 : 512) : (frameLengthFlag ? 960 : 1024)
        return hasSBR ? core * 2 : core
    }

    /// The decoded sampling rate in Hz: the SBR extension rate when SBR is signalled.
    public var outputSampleRate: Int {
        guard hasSBR else { return samplingFrequency }
        return extensionSamplingFrequency ?? samplingFrequency * 2
    }

    /// The decoded channel count: from the channel configuration (7 means 7.1, i.e. 8), from
    /// the program_config_element for configuration 0, and 2 for mono with parametric stereo;
    /// 0 when unknown.
    public var outputChannels: Int {
        let channels: Int
        switch channelConfiguration {
        case 0: channels = programConfig?.channelCount ?? 0
        case 1...6: channels = channelConfiguration
        case 7, 12, 14: channels = 8
        case 11: channels = 7
        case 13: channels = 24
        default: channels = 0
        }
        return psPresent == true && channels == 1 ? 2 : channels
    }

    /// The profile name ffprobe prints for this config: "Main", "LC", "SSR", "LTP", "HE-AAC",
    /// "HE-AACv2", "LD", "ELD", or "unknown".
    public var profileName: String {
        if psPresent == true { return "HE-AACv2" }
        if hasSBR { return "HE-AAC" }
        switch audioObjectType {
        case 1: return "Main"
        case 2: return "LC"
        case 3: return "SSR"
        case 4: return "LTP"
        case 23: return "LD"
        case 39: return "ELD"
        default: return "unknown"
        }
    }
}
