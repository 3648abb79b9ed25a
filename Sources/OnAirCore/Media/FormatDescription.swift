/// What a decoder needs before the first packet: H.264 parameter sets, AAC's AudioSpecificConfig or Opus's OpusHead.
package enum FormatDescription: Sendable, Hashable, Codable {
    /// H.264 sequence and picture parameter sets, each a NAL unit without start code.
    case h264(sps: [[UInt8]], pps: [[UInt8]])
    /// H.265 video, sequence and picture parameter sets, each a NAL unit without start code.
    case h265(vps: [[UInt8]], sps: [[UInt8]], pps: [[UInt8]])
    /// AAC AudioSpecificConfig bytes (ISO 14496-3 §1.6.2.1).
    case aac(audioSpecificConfig: [UInt8])
    /// The Opus identification header ("OpusHead", RFC 7845 §5.1): channels, pre-skip, input rate.
    case opus(header: [UInt8])

    /// The H.264 SPS NAL units (empty for H.265 and audio: see `parameterSets`).
    public var sps: [[UInt8]] {
        if case .h264(let sps, _) = self { return sps }
        return []
    }

    /// The H.264 PPS NAL units (empty for AAC).
    public var pps: [[UInt8]] {
        if case .h264(_, let pps) = self { return pps }
        return []
    }

    /// Every parameter set in decoding order: H.264's SPS and PPS, H.265's VPS, SPS and PPS (empty for audio).
    public var parameterSets: [[UInt8]] {
        switch self {
        case let .h264(sps, pps): return sps + pps
        case let .h265(vps, sps, pps): return vps + sps + pps
        default: return []
        }
    }

    /// The video codec the parameter sets are for, nil for audio.
    public var videoCodec: MediaCodec? {
        switch self {
        case .h264: return .h264
        case .h265: return .h265
        default: return nil
        }
    }

    /// The AAC AudioSpecificConfig (empty for H.264).
    public var audioSpecificConfig: [UInt8] {
        if case .aac(let config) = self { return config }
        return []
    }
}
