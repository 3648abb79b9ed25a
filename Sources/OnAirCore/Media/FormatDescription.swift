/// What a decoder needs before the first packet: H.264 parameter sets, AAC's AudioSpecificConfig or Opus's OpusHead.
public enum FormatDescription: Sendable, Hashable, Codable {
    /// H.264 sequence and picture parameter sets, each a NAL unit without start code.
    case h264(sps: [[UInt8]], pps: [[UInt8]])
    /// AAC AudioSpecificConfig bytes (ISO 14496-3 §1.6.2.1).
    case aac(audioSpecificConfig: [UInt8])
    /// The Opus identification header ("OpusHead", RFC 7845 §5.1): channels, pre-skip, input rate.
    case opus(header: [UInt8])

    /// The H.264 SPS NAL units (empty for AAC).
    public var sps: [[UInt8]] {
        if case .h264(let sps, _) = self { return sps }
        return []
    }

    /// The H.264 PPS NAL units (empty for AAC).
    public var pps: [[UInt8]] {
        if case .h264(_, let pps) = self { return pps }
        return []
    }

    /// The AAC AudioSpecificConfig (empty for H.264).
    public var audioSpecificConfig: [UInt8] {
        if case .aac(let config) = self { return config }
        return []
    }
}
