#if os(Linux)
import OnAirCore

/// Why `SOAPReader` refused a document. Every refusal is one of these: the reader never traps.
package enum SOAPReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document is longer than the limit (bytes).
    case tooLarge(limit: Int)
    /// Elements nest deeper than the limit.
    case tooDeep(limit: Int)
    /// The document holds more elements than the limit.
    case tooManyElements(limit: Int)
    /// One element has more attributes than the limit.
    case tooManyAttributes(limit: Int)
    /// A name is longer than the limit (bytes).
    case nameTooLong(limit: Int)
    /// Not well-formed XML: what was wrong and the byte offset where it was seen.
    case malformed(String, offset: Int)
    /// A prefix used without a declaration in scope.
    case unboundPrefix(String)
    /// A document type declaration (refused: no entity expansion, no external references).
    case doctype
    /// Well-formed XML that is not a SOAP envelope: what is missing.
    case notAnEnvelope(String)

    /// A sentence saying what was wrong (for the SOAP fault's reason).
    package var description: String {
        switch self {
        case .tooLarge(let limit): "the message is over \(limit) bytes"
        case .tooDeep(let limit): "elements nest deeper than \(limit)"
        case .tooManyElements(let limit): "the message has over \(limit) elements"
        case .tooManyAttributes(let limit): "an element has over \(limit) attributes"
        case .nameTooLong(let limit): "a name is over \(limit) bytes"
        case .malformed(let what, let offset): "malformed XML at byte \(offset): \(what)"
        case .unboundPrefix(let prefix): "the prefix '\(prefix)' is not declared"
        case .doctype: "document type declarations are refused"
        case .notAnEnvelope(let what): "not a SOAP envelope: \(what)"
        }
    }
}
#endif
