#if os(Linux)
/// What a continuous response's source gives for one read.
package enum HTTPStreamRead: Sendable, Equatable {
    /// This many bytes were written into the buffer (at least 1).
    case bytes(Int)
    /// Nothing yet: the server sets the connection aside and asks again once the source's
    /// `notify` wake runs.
    case nothing
    /// The stream ended normally.
    case end
    /// The stream must be cut (the viewer fell too far behind, the server stops).
    case abort
}

/// The body of a continuous response, read by the server's event loop until it ends.
///
/// `read(into:)` must not wait for data: it gives what is there (a copy from memory, a read of a
/// local file) or `.nothing`. After `.nothing` the server calls `notify(_:)` and reads again only
/// once the wake has run, so a connection with nothing to send costs no thread and no polling.
/// The calls of one source never overlap. `close()` is called once when the connection is done,
/// whatever the reason.
package protocol HTTPStreamSource: AnyObject, Sendable {
    /// Fills `buffer` with the next bytes of the stream, without waiting for more to arrive.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead
    /// Calls `wake` once, from any thread, as soon as a read would give something other than
    /// `.nothing` (bytes, the end, a cut) — at once if it already would.
    func notify(_ wake: @escaping @Sendable () -> Void)
    /// The connection ended; release what the stream holds.
    func close()
    /// Keeps `abort`, to be called once from any thread if the stream is cut while the server is
    /// not reading it (its connection's socket backed up, so no read comes to give `.abort`): the
    /// server then closes the connection. Sources that are cut only by a read ignore it.
    func whenAborted(_ abort: @escaping @Sendable () -> Void)
}

extension HTTPStreamSource {
    package func whenAborted(_ abort: @escaping @Sendable () -> Void) {}
}
#endif
