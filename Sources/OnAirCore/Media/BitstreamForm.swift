/// How an encoded payload is framed.
package enum BitstreamForm: Sendable, Hashable, CustomStringConvertible {
    /// H.264 or H.265 NAL units after start codes; with `parameterSetsInBand`, the parameter sets
    /// (SPS/PPS; H.265's VPS/SPS/PPS) precede every keyframe.
    case annexB(parameterSetsInBand: Bool)
    /// NAL units each after a big-endian length of `lengthSize` bytes (AVCC, as in MP4/FLV; H.265's
    /// `hvc1` samples); with `parameterSetsInBand` false, the parameter sets live only in the
    /// avcC or hvcC record.
    case lengthPrefixed(lengthSize: Int, parameterSetsInBand: Bool)
    /// One codec frame as it is (an AAC raw_data_block, no ADTS header).
    case raw

    /// What OnAir's encoders produce for `codec`.
    public static func `default`(for codec: MediaCodec) -> BitstreamForm {
        codec == .h264 || codec == .h265 ? .annexB(parameterSetsInBand: true) : .raw
    }

    /// The form MP4, MOV and FLV store H.264 in: 4-byte lengths, parameter sets in the avcC record.
    public static let avcc = BitstreamForm.lengthPrefixed(lengthSize: 4, parameterSetsInBand: false)

    /// The form in words (Annex-B, or the length-prefix size), for messages.
    public var description: String {
        switch self {
        case .annexB(let inBand): return inBand ? "Annex-B with parameter sets" : "Annex-B"
        case .lengthPrefixed(let size, let inBand): return "\(size)-byte length-prefixed" + (inBand ? " with parameter sets" : "")
        case .raw: return "raw"
        }
    }
}
