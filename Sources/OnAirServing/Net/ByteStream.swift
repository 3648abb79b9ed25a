#if os(Linux)
#if canImport(Glibc)
import Glibc
#endif

/// Why a stream could not be made, in the library's words.
package struct ByteStreamError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}

/// Where a stream's handshake stands after one non-blocking step.
package enum ByteStreamProgress: Sendable, Equatable {
    /// The handshake is over: bytes may flow.
    case done
    /// The step waits for the socket to turn readable; make it again then.
    case wantsRead
    /// The step waits for the socket to turn writable; make it again then.
    case wantsWrite
    /// The handshake failed, in the library's words: the connection is to be dropped.
    case failed(String)
}

/// What one non-blocking receive or send on a stream came to.
package enum ByteStreamIOResult: Sendable, Equatable {
    /// This many bytes were received, or taken for sending (possibly fewer than offered).
    case bytes(Int)
    /// The peer ended the stream (close_notify, or the socket's end): nothing more will come.
    case closed
    /// Nothing now: make the same call again once the socket is readable.
    case wantsRead
    /// Nothing now: make the same call again once the socket is writable.
    case wantsWrite
    /// The stream failed, in the library's words: the connection is to be dropped.
    case failed(String)
}

/// A connection's bytes over a connected non-blocking socket, plain (`PlainStream`, RTSP) or in TLS
/// (`TLSServerStream`, RTSPS), so that an event loop's connection code is one path for both. No
/// call blocks. The socket stays the owner's: no call closes it, and the owner closes it only after
/// `close()` (which may still write to it).
package protocol ByteStream: AnyObject, Sendable {
    /// The handshake's progress type.
    typealias Progress = ByteStreamProgress
    /// A receive's or send's outcome type.
    typealias IOResult = ByteStreamIOResult

    /// The connected non-blocking socket the stream runs on (for the event loop to watch).
    var fd: Int32 { get }
    /// One step of the handshake (`.done` at once for a plain stream).
    func handshake() -> Progress
    /// Receives what is there, up to the buffer's size (`.bytes(0)` for an empty buffer).
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult
    /// Sends what the socket takes now of `bytes`; after `.wantsWrite` the next call offers the same
    /// bytes again (the ones not reported taken), as with any partial write.
    func send(_ bytes: UnsafeRawBufferPointer) -> IOResult
    /// Bytes received and held inside the stream: the loop reads them without waiting for the
    /// socket, which may not turn readable for them (0 for a plain stream).
    var pendingBytes: Int { get }
    /// One step of ending the stream's sending side (TLS close_notify; a plain stream shuts the
    /// socket's writing side), not waiting for the peer's end: a loop that wants the end to reach the
    /// peer makes it until `.done` before `close()`.
    func bye() -> Progress
    /// Ends the sending side unless `bye()` has (one try, no waiting) and releases what the stream
    /// holds; later calls fail.
    func close()
}

/// A plain non-blocking TCP connection as a `ByteStream` (RTSP without TLS): `recv` and `send`,
/// EAGAIN as `.wantsRead`/`.wantsWrite`. Holds no state, so any thread may call it.
package final class PlainStream: ByteStream {
    /// The connected non-blocking socket.
    package let fd: Int32

    /// A stream over `fd`, which must already be connected and non-blocking.
    package init(fd: Int32) {
        self.fd = fd
    }

    /// A plain stream has no handshake.
    package func handshake() -> Progress { .done }

    /// Receives what the socket holds, up to the buffer's size.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
        while true {
            let count = recv(fd, base, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            return Self.outcome(errno: errno, waiting: .wantsRead, step: "receive")
        }
    }

    /// Sends what the socket takes now (never raising SIGPIPE).
    package func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        while true {
            let count = Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .bytes(count) }
            if errno == EINTR { continue }
            return Self.outcome(errno: errno, waiting: .wantsWrite, step: "send")
        }
    }

    /// Nothing is ever held inside a plain stream.
    package var pendingBytes: Int { 0 }

    /// Shuts the socket's writing side: the peer reads the end of the stream.
    package func bye() -> Progress {
        shutdown(fd, Int32(SHUT_WR)) == 0 ? .done : .failed("shutdown: \(String(cString: strerror(errno)))")
    }

    /// Shuts the socket's writing side (again, harmlessly, after `bye()`).
    package func close() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// `waiting` for EAGAIN, else the failure in the system's words.
    private static func outcome(errno code: Int32, waiting: IOResult, step: String) -> IOResult {
        if code == EAGAIN || code == EWOULDBLOCK { return waiting }
        return .failed("\(step): \(String(cString: strerror(code)))")
    }
}
#endif
