/// The kind of an H.264 slice: `slice_type % 5` (ITU-T H.264 table 7-6).
package enum H264SliceType: Int, Sendable, CustomStringConvertible {
    /// Predicted from one list of references.
    case p = 0
    /// Bi-predicted from two lists of references.
    case b = 1
    /// Intra only.
    case i = 2
    /// Switching P.
    case sp = 3
    /// Switching I.
    case si = 4

    /// Whether slices of this kind use no inter prediction (I and SI).
    public var isIntra: Bool { self == .i || self == .si }

    /// The letter FFmpeg prints as `pict_type`: "P", "B", "I", "SP" or "SI".
    public var description: String {
        switch self {
        case .p: return "P"
        case .b: return "B"
        case .i: return "I"
        case .sp: return "SP"
        case .si: return "SI"
        }
    }
}
