#if os(Linux)
import Foundation
import OnAirCore

/// A `Range: bytes=…` request against a body of known size (RFC 9110 §14.1.2), one range only.
package enum ByteRange: Sendable, Equatable {
    /// No usable Range header: the whole body, 200.
    case whole
    /// Bytes `lower...upper` of the body, 206.
    case part(lower: Int64, upper: Int64)
    /// A range that lies past the end, 416.
    case unsatisfiable

    /// Reads `header` for a body of `size` bytes; a part is clamped to at most `maximumLength`
    /// bytes (the client asks again for the rest). Malformed or multi-range headers are ignored
    /// (the whole body), as RFC 9110 allows; the header is read up to 100 bytes.
    package static func parse(_ header: String?, size: Int64, maximumLength: Int64 = 8 << 20) -> ByteRange {
        guard let header, header.utf8.count <= 100, header.hasPrefix("bytes="), size >= 0 else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int64? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
            return Int64(text)
        }
        var lower: Int64, upper: Int64
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            lower = max(0, size - suffix)
            upper = size - 1
        } else {
            guard let start = number(first) else { return .whole }
            if last.isEmpty {
                upper = size - 1
            } else {
                guard let end = number(last), end >= start else { return .whole }
                upper = min(end, size - 1)
            }
            lower = start
            guard lower < size else { return .unsatisfiable }
        }
        upper = min(upper, lower + max(1, maximumLength) - 1)
        return .part(lower: lower, upper: upper)
    }
}
#endif
