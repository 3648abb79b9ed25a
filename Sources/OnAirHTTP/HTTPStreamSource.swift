#if os(Linux)
/// What a continuous response's source gives for one read.
public enum HTTPStreamRead: Sendable, Equatable {
    /// This many bytes were written into the buffer (at least 1).
    case bytes(Int)
    /// Nothing yet; the server asks again at once (the source has already waited a while).
    case nothing
    /// The stream ended normally.
    case end
    /// The stream must be cut (the viewer fell too far behind, the server stops).
    case abort
}

/// The body of a continuous response: read on the connection's own thread until it ends.
///
/// `read(into:)` may block for a bounded time (at most about a second) while nothing is ready.
/// `close()` is called once when the connection is done, whatever the reason.
public protocol HTTPStreamSource: AnyObject, Sendable {
    /// Fills `buffer` with the next bytes of the stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead
    /// The connection ended; release what the stream holds.
    func close()
}
#endif
