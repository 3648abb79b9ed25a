/// A moment in the life of an output file, in the order they come: opening it, writing the
/// container header, writing the n-th packet (from 0), writing the trailer and index (with the
/// final flush of what the muxer held back), closing it.
///
/// `WriteFaults` makes writes fail from one of these moments on, for tests.
package enum WriteMoment: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Creating or opening the file.
    case open
    /// Writing the container header (for elementary streams: the first write).
    case header
    /// Writing the packet with this index, counted from 0 over every stream of the output.
    case packet(Int)
    /// Writing the trailer and index, and flushing what the muxer held back.
    case trailer
    /// Closing the file.
    case close

    private var rank: (Int, Int) {
        switch self {
        case .open: return (0, 0)
        case .header: return (1, 0)
        case .packet(let index): return (2, index)
        case .trailer: return (3, 0)
        case .close: return (4, 0)
        }
    }

    /// Whether `lhs` comes before `rhs` in a file's life.
    public static func < (lhs: WriteMoment, rhs: WriteMoment) -> Bool { lhs.rank < rhs.rank }

    /// The moment in words ("packet 5"), for test names and messages.
    public var description: String {
        switch self {
        case .open: return "open"
        case .header: return "header"
        case .packet(let index): return "packet \(index)"
        case .trailer: return "trailer"
        case .close: return "close"
        }
    }
}
