#if os(Linux)
import Foundation
import OnAirCore

/// The WS-Security UsernameToken of a SOAP header (OASIS WSS UsernameToken Profile 1.0), as ONVIF
/// clients send it: a user name, a password given as text or as a digest, and for a digest the
/// nonce and creation time it was computed over:
///
///     PasswordDigest = Base64(SHA-1(nonce + created + password))
package struct WSUsernameToken: Sendable, Equatable {
    /// The password type URI of a digest (the `Type` attribute's value ends with this).
    package static let digestType = "#PasswordDigest"
    /// The longest nonce taken, in bytes after decoding.
    package static let maximumNonceBytes = 64

    /// The user name.
    package var username: String
    /// The password or, when `isDigest`, the Base64 digest.
    package var password: String
    /// Whether `password` is a digest (else the password itself).
    package var isDigest: Bool
    /// The nonce, decoded (empty when none was sent).
    package var nonce: [UInt8]
    /// The `wsu:Created` text as sent (nil when none).
    package var created: String?

    /// The token in `header` (its `Security` entry's `UsernameToken`), or nil when there is none
    /// or it is unusable: no name, no password, a nonce that is not Base64 or too long.
    package init?(header: SOAPElement?) {
        guard let token = header?.child("Security")?.child("UsernameToken"), let username = token.childValue("Username"),
            let password = token.child("Password"), !username.isEmpty
        else { return nil }
        self.username = username
        self.password = password.value
        isDigest = password.attribute("Type")?.hasSuffix(Self.digestType) == true
        if let text = token.childValue("Nonce") {
            guard let decoded = Data(base64Encoded: text), decoded.count <= Self.maximumNonceBytes else { return nil }
            nonce = Array(decoded)
        } else {
            nonce = []
        }
        created = token.childValue("Created")
    }

    /// A token from its parts (for tests and clients).
    package init(username: String, password: String, isDigest: Bool, nonce: [UInt8], created: String?) {
        self.username = username
        self.password = password
        self.isDigest = isDigest
        self.nonce = nonce
        self.created = created
    }

    /// The digest a client holding `password` sends with `nonce` and `created`.
    package static func digest(password: String, nonce: [UInt8], created: String) -> String {
        Data(SHA1.digest(nonce + Array(created.utf8) + Array(password.utf8))).base64EncodedString()
    }

    /// Whether the token proves `password`: its digest, or the text itself (compared in constant time).
    package func proves(_ password: String) -> Bool {
        guard isDigest else { return ConstantTime.equal(self.password, password) }
        guard let created, !nonce.isEmpty else { return false }
        return ConstantTime.equal(Self.digest(password: password, nonce: nonce, created: created), self.password)
    }
}
#endif
