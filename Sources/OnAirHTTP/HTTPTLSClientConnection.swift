#if os(Linux)
import COnAirTLS

/// A TLS client session (GnuTLS) on a connected socket, for OnAir's own small HTTPS clients (WHIP):
/// TLS 1.2/1.3, the server's certificate checked against the system's authorities or a CA file, and
/// its host name or address. The socket must be blocking; it stays the caller's to close.
package final class HTTPTLSClientConnection {
    private let client: OpaquePointer

    /// Makes the handshake on `socket` for `host` within `timeout` seconds; `verify` false accepts
    /// any certificate (testing only). Throws with the reason (for a refused certificate, GnuTLS's).
    package init(socket: Int32, host: String, caFile: String?, verify: Bool, timeout: Double) throws(HTTPServerError) {
        var error = [CChar](repeating: 0, count: 512)
        guard
            let made = onair_tls_client_open(
                socket, host, caFile, verify ? 1 : 0, Self.milliseconds(timeout), &error, error.count)
        else { throw HTTPServerError(HTTPTLSCredentials.text(error)) }
        client = made
    }

    /// Sends every byte.
    package func send(_ bytes: [UInt8]) throws(HTTPServerError) {
        var error = [CChar](repeating: 0, count: 256)
        let code = bytes.withUnsafeBytes { onair_tls_client_send(client, $0.baseAddress, $0.count, &error, error.count) }
        guard code == 0 else { throw HTTPServerError(HTTPTLSCredentials.text(error)) }
    }

    /// Up to `buffer.count` bytes within `timeout` seconds; 0 at the end of the stream.
    package func receive(into buffer: inout [UInt8], timeout: Double) throws(HTTPServerError) -> Int {
        var error = [CChar](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes {
            onair_tls_client_receive(client, $0.baseAddress, $0.count, Self.milliseconds(timeout), &error, error.count)
        }
        guard count >= 0 else { throw HTTPServerError(HTTPTLSCredentials.text(error)) }
        return count
    }

    private static func milliseconds(_ seconds: Double) -> UInt32 { UInt32(max(1, min(seconds * 1000, 600_000)).rounded(.up)) }

    deinit { onair_tls_client_close(client) }
}
#endif
