#if os(Linux)
import COnAirTLS

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server certificate and its private key in PEM, which an `HTTPServer` presents over TLS (GnuTLS,
/// through libmicrohttpd): TLS 1.2 and 1.3 only, the library's secure defaults otherwise, no compression.
package struct HTTPTLSCredentials: Sendable, Equatable {
    /// The certificate (and any intermediate certificates after it), PEM.
    package var certificatePEM: String
    /// The private key, PEM (PKCS#8, or the key's own format).
    package var keyPEM: String

    /// The GnuTLS priorities every TLS server of OnAir uses: GnuTLS's `NORMAL` (its secure defaults)
    /// with every protocol version off but TLS 1.3 and 1.2. (GnuTLS 3.7 has no TLS compression at all.)
    package static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// Credentials from PEM texts, checked: the key must be the certificate's.
    package init(certificatePEM: String, keyPEM: String) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard onair_tls_check_pair(certificatePEM, keyPEM, &error, error.count) == 0 else {
            throw HTTPServerError("TLS: \(Self.text(error))", isInvalidSettings: true)
        }
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// Makes an ECDSA P-256 key and a self-signed certificate for it, valid from a day ago for `days`
    /// days, naming `addresses` (numeric IPv4 or IPv6) and `names` (DNS) in its subjectAltName:
    /// GnuTLS clients reject a certificate naming an address in its common name only.
    package static func selfSigned(
        commonName: String = "onair", addresses: [String], names: [String], days: Int = 825
    ) throws -> HTTPTLSCredentials {
        var error = [CChar](repeating: 0, count: 256)
        var certificate: UnsafeMutablePointer<CChar>?
        var key: UnsafeMutablePointer<CChar>?
        let code = withCStrings(addresses) { addressList in
            withCStrings(names) { nameList in
                onair_tls_make_self_signed(
                    commonName, addressList, addresses.count, nameList, names.count, UInt32(clamping: days), &certificate, &key,
                    &error, error.count)
            }
        }
        defer {
            onair_tls_free(certificate)
            onair_tls_free(key)
        }
        guard code == 0, let certificate, let key else {
            throw HTTPServerError("TLS: could not make a certificate (\(Self.text(error)))")
        }
        return try HTTPTLSCredentials(certificatePEM: String(cString: certificate), keyPEM: String(cString: key))
    }

    /// The SHA-256 fingerprint of the certificate, `AB:12:…` (what a user compares or pins).
    package var fingerprint: String {
        get throws {
            var error = [CChar](repeating: 0, count: 256)
            var text = [CChar](repeating: 0, count: 96)
            guard onair_tls_fingerprint(certificatePEM, &text, text.count, &error, error.count) == 0 else {
                throw HTTPServerError("TLS: \(Self.text(error))", isInvalidSettings: true)
            }
            return Self.text(text)
        }
    }

    /// The text of a NUL-terminated C buffer.
    package static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `body` with `strings` as an array of C strings valid for the call.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer<CChar>($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
#endif
