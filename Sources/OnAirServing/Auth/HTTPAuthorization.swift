#if os(Linux)
import Foundation

/// The credentials of an `Authorization` header field: `Basic` (RFC 7617: a user and a password,
/// base64) or `Bearer` (RFC 6750: a token). Scheme names are case-insensitive; anything else,
/// malformed base64, a Basic value without `:` or a header over `maximumBytes` parses to nil.
package enum HTTPAuthorization: Sendable, Equatable {
    /// A user name and password.
    case basic(user: String, password: String)
    /// A token.
    case bearer(String)

    /// The longest header value parsed (bytes).
    package static let maximumBytes = 4096

    /// Parses a header value; nil when it is neither well-formed Basic nor Bearer.
    package init?(_ header: String) {
        guard header.utf8.count <= Self.maximumBytes else { return nil }
        let text = header.trimmingCharacters(in: .whitespaces)
        if let credentials = Self.value(of: text, scheme: "Basic") {
            guard let data = Data(base64Encoded: credentials), let decoded = String(data: data, encoding: .utf8),
                let colon = decoded.firstIndex(of: ":")
            else { return nil }
            self = .basic(user: String(decoded[..<colon]), password: String(decoded[decoded.index(after: colon)...]))
        } else if let token = Self.value(of: text, scheme: "Bearer") {
            self = .bearer(token)
        } else {
            return nil
        }
    }

    /// Whether `header` names the Basic scheme at all (well-formed or not).
    package static func isBasic(_ header: String) -> Bool {
        header.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("basic ")
    }

    /// The credentials after `scheme` (case-insensitive) and a space, or nil.
    private static func value(of header: String, scheme: String) -> String? {
        guard header.count > scheme.count + 1, header.prefix(scheme.count).lowercased() == scheme.lowercased(),
            header.dropFirst(scheme.count).first == " "
        else { return nil }
        let value = header.dropFirst(scheme.count + 1).trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
#endif
