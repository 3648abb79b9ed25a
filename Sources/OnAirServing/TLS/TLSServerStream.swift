#if os(Linux)
import COnAirTLS
import OnAirCore
import OnAirHTTP

#if canImport(Glibc)
import Glibc
#endif

/// A TLS server session (GnuTLS, through COnAirTLS) on a connected non-blocking socket: RTSPS in
/// the RTSP server's event loop. It presents the slot's certificate of the moment it was made, kept
/// until the stream goes whatever replaces it in the slot; TLS 1.2 and 1.3 as `HTTPTLSCredentials.priorities`.
///
/// Threads: the session lives in a `Locked` box, so the stream is `Sendable` and calls are made one
/// at a time whichever thread makes them; the RTSP server drives each stream from its one epoll thread.
package final class TLSServerStream: ByteStream {
    /// The session, and the bytes of a record GnuTLS has made but not yet put on the socket.
    private struct State {
        /// The C session; nil once closed.
        var server: OpaquePointer?
        /// After `.wantsWrite` from a send: the bytes that send offered, which GnuTLS's rule says the
        /// next send must offer again (the record made of them waits in the session).
        var offered: [UInt8]?
        /// Whether close_notify has gone out whole.
        var saidBye = false
    }

    /// The largest plaintext one TLS record carries: a send offers at most this much to GnuTLS.
    static let recordSize = 16_384

    /// The connected non-blocking socket.
    package let fd: Int32
    private let state: Locked<State>

    /// A server session on `fd` (connected, non-blocking) presenting `slot`'s current certificate.
    package init(fd: Int32, slot: HTTPTLSSlot) throws {
        var error = [CChar](repeating: 0, count: 256)
        let made = slot.withSlot { onair_tls_server_create(fd, $0, HTTPTLSCredentials.priorities, &error, error.count) }
        guard let made else { throw ByteStreamError("TLS: \(HTTPTLSCredentials.text(error))") }
        self.fd = fd
        state = Locked(State(server: made))
    }

    /// One step of the handshake.
    package func handshake() -> Progress {
        state.withLock { state in
            guard let server = state.server else { return .failed("TLS: the stream is closed") }
            let code = Int(onair_tls_server_handshake(server))
            if code == 0 { return .done }
            switch Self.outcome(code, server) {
            case .wantsRead: return .wantsRead
            case .wantsWrite: return .wantsWrite
            case .failed(let words): return .failed(words)
            case .bytes, .closed: return .failed("TLS handshake: status \(code)")
            }
        }
    }

    /// Receives what the session can decrypt now, up to the buffer's size.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        state.withLock { state in
            guard let server = state.server else { return .failed("TLS: the stream is closed") }
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
            let count = onair_tls_server_receive(server, base, buffer.count)
            if count > 0 { return .bytes(count) }
            return count == 0 ? .closed : Self.outcome(count, server)
        }
    }

    /// Sends at most one record's worth of `bytes`. After `.wantsWrite` the next call must offer the
    /// same bytes again (GnuTLS's rule): it then finishes the waiting record and reports its count;
    /// other bytes fail the stream rather than send what the caller did not mean.
    package func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        state.withLock { state in
            guard let server = state.server else { return .failed("TLS: the stream is closed") }
            let count: Int
            if let offered = state.offered {
                let same = bytes.count >= offered.count && bytes.prefix(offered.count).elementsEqual(offered)
                guard same else { return .failed("TLS send: after wantsWrite the same bytes must be offered again") }
                count = onair_tls_server_send(server, nil, 0)
            } else {
                guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
                count = onair_tls_server_send(server, base, min(bytes.count, Self.recordSize))
            }
            if count >= 0 {
                state.offered = nil
                return .bytes(count)
            }
            let outcome = Self.outcome(count, server)
            switch outcome {
            case .wantsRead, .wantsWrite:
                if state.offered == nil { state.offered = Array(UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.recordSize))) }
            default:
                state.offered = nil
            }
            return outcome
        }
    }

    /// Bytes GnuTLS has decrypted and not yet handed over.
    package var pendingBytes: Int {
        state.withLock { state in state.server.map { Int(onair_tls_server_pending($0)) } ?? 0 }
    }

    /// One step of sending close_notify (GnuTLS's bye, our side only): `.done` once it went out whole.
    package func bye() -> Progress {
        state.withLock { state in
            guard let server = state.server else { return .failed("TLS: the stream is closed") }
            if state.saidBye { return .done }
            let code = Int(onair_tls_server_bye(server))
            if code == 0 {
                state.saidBye = true
                return .done
            }
            switch Self.outcome(code, server) {
            case .wantsRead: return .wantsRead
            case .wantsWrite: return .wantsWrite
            case .failed(let words): return .failed(words)
            case .bytes, .closed: return .failed("TLS close_notify: status \(code)")
            }
        }
    }

    /// Sends close_notify unless `bye()` has, trying once without waiting (what the socket does not
    /// take now is dropped), and frees the session. Call it before closing the socket; later calls fail.
    package func close() {
        state.withLock { state in
            guard let server = state.server else { return }
            if !state.saidBye { _ = onair_tls_server_bye(server) }
            onair_tls_server_free(server)
            state.server = nil
            state.offered = nil
        }
    }

    /// Frees the session without a word on the socket (which may already be closed).
    deinit {
        state.withLock { state in
            if let server = state.server { onair_tls_server_free(server) }
            state.server = nil
        }
    }

    /// A C status as an outcome: wants read or write, or the failure in GnuTLS's words.
    private static func outcome(_ code: Int, _ server: OpaquePointer) -> IOResult {
        switch code {
        case Int(ONAIR_TLS_WANTS_READ): return .wantsRead
        case Int(ONAIR_TLS_WANTS_WRITE): return .wantsWrite
        default: return .failed(String(cString: onair_tls_server_error(server)))
        }
    }
}
#endif
