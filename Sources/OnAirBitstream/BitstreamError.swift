import OnAirCore

/// Why bytes could not be parsed as the bitstream structure that was asked for.
///
/// Every parser in `OnAirBitstream` reads untrusted bytes and reports problems with this error
/// instead of trapping or reading past the end of its input.
public enum BitstreamError: OnAirError, Equatable {
    /// The input ended while `what` was being read.
    case truncated(String)
    /// A field held a value outside what the specification allows.
    case invalidValue(field: String, value: Int64, allowed: String)
    /// The input is well-formed but uses a feature this parser does not handle.
    case unsupported(String)
    /// The input is not the structure that was expected (a missing start code, a bad sync word, …).
    case malformed(String)

    /// What is wrong with the bytes, in one line.
    public var description: String {
        switch self {
        case .truncated(let what): return "truncated input while reading \(what)"
        case let .invalidValue(field, value, allowed): return "\(field) is \(value); allowed: \(allowed)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .malformed(let what): return "malformed input: \(what)"
        }
    }
}
