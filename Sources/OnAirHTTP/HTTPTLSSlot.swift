#if os(Linux)
import COnAirTLS

/// The certificate and key a TLS server presents, held by the C bridge where libmicrohttpd's
/// handshake callback finds them by port (HTTPS) and `TLSServerStream` takes them (RTSPS);
/// replaceable while the server runs. Freed with the object (after the server stopped); a TLS
/// server session keeps the certificate it began with past that.
package final class HTTPTLSSlot: Sendable {
    private let slot: HTTPCPointer

    /// A slot holding `credentials`, bound to no port yet.
    package init(_ credentials: HTTPTLSCredentials) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard let made = onair_tls_slot_create(credentials.certificatePEM, credentials.keyPEM, &error, error.count) else {
            throw HTTPServerError("TLS: \(HTTPTLSCredentials.text(error))", isInvalidSettings: true)
        }
        slot = HTTPCPointer(made)
    }

    /// Handshakes on `port` take this slot's certificate.
    package func bind(port: Int) { onair_tls_slot_bind(slot.pointer, UInt16(clamping: port)) }

    /// The certificate for the handshakes to come.
    package func replace(with credentials: HTTPTLSCredentials) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard onair_tls_slot_replace(slot.pointer, credentials.certificatePEM, credentials.keyPEM, &error, error.count) == 0 else {
            throw HTTPServerError("TLS: \(HTTPTLSCredentials.text(error))", isInvalidSettings: true)
        }
    }

    /// Calls `body` with the C slot, which stays alive for the call.
    package func withSlot<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(slot.pointer) }
    }

    deinit { onair_tls_slot_free(slot.pointer) }
}
#endif
