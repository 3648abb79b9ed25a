#if os(Linux)
/// A pointer to a C object of this target — a libmicrohttpd daemon or connection, the TLS bridge's
/// certificate slot, the logger record libmicrohttpd calls back with — as a value threads may pass
/// around and a key.
///
/// Unchecked Sendable: the C libraries' thread rules make it safe — off the event loop only
/// libmicrohttpd's thread-safe calls (resume a connection, stop the daemon) take one, and the TLS
/// bridge guards its slots with a mutex of its own (tls.c).
struct HTTPCPointer: Hashable, @unchecked Sendable {
    /// The C object.
    let pointer: OpaquePointer

    /// A handle to `pointer`.
    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}
#endif
