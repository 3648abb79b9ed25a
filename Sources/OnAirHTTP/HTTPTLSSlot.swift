#if os(Linux)
import COnAirTLS

/// The certificate and key an HTTPS server presents, held by the C bridge where libmicrohttpd's
/// handshake callback finds them by port; replaceable while the server runs. Freed with the object
/// (after the server stopped).
final class HTTPTLSSlot: Sendable {
    private let slot: HTTPCPointer

    init(_ credentials: HTTPTLSCredentials) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard let made = onair_tls_slot_create(credentials.certificatePEM, credentials.keyPEM, &error, error.count) else {
            throw HTTPServerError("TLS: \(HTTPTLSCredentials.text(error))", isInvalidSettings: true)
        }
        slot = HTTPCPointer(made)
    }

    /// Handshakes on `port` take this slot's certificate.
    func bind(port: Int) { onair_tls_slot_bind(slot.pointer, UInt16(clamping: port)) }

    /// The certificate for the handshakes to come.
    func replace(with credentials: HTTPTLSCredentials) throws {
        var error = [CChar](repeating: 0, count: 256)
        guard onair_tls_slot_replace(slot.pointer, credentials.certificatePEM, credentials.keyPEM, &error, error.count) == 0 else {
            throw HTTPServerError("TLS: \(HTTPTLSCredentials.text(error))", isInvalidSettings: true)
        }
    }

    deinit { onair_tls_slot_free(slot.pointer) }
}
#endif
