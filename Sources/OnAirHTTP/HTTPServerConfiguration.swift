#if os(Linux)
/// Where an `HTTPServer` listens and the limits that keep hostile or slow clients from holding it.
package struct HTTPServerConfiguration: Sendable {
    /// The address and port (loopback unless said otherwise).
    package var address: HTTPListenAddress
    /// Connections open at once, of any kind; more are refused at accept.
    package var connectionLimit = 128
    /// Connections open at once from one IP address (0: no per-address limit).
    package var perAddressLimit = 0
    /// Seconds a connection may stay without any progress (nothing received or sent) before it is
    /// closed. A connection set aside — waiting for its handler, a pending answer or a continuous
    /// body's next bytes — is not idle.
    package var idleTimeout = 10
    /// Seconds a client has to send its whole request line and header (a request sent a byte at a
    /// time is cut after this, even though it never goes idle).
    package var requestTimeout = 5.0
    /// Bytes of memory per connection; the request line and all header fields must fit in it
    /// (larger requests get 431 or 414 and are closed).
    package var connectionMemoryLimit = 32 * 1024
    /// Stack of each of the server's threads (its event loop and its handler threads).
    package var threadStackSize = 256 * 1024
    /// The most threads handlers run on at once (started as requests need them); a request
    /// arriving while all are busy waits for one, its connection set aside. A handler that waits
    /// for something (a long poll) should return a `.pending` body instead of holding its thread.
    package var handlerThreads = 4
    /// The kernel send buffer of each connection (0: the system's default), so a slow reader's
    /// backlog stays in the application's queue where it is seen and bounded.
    package var sendBufferBytes = 0

    /// When set, the server speaks HTTPS only (TLS 1.2 and 1.3) with this certificate and key;
    /// a client speaking plain HTTP to it gets no answer but the connection's end.
    package var tls: HTTPTLSCredentials?

    /// The methods handed to the handler; others get 405. GET and HEAD unless told otherwise.
    package var methods: Set<String> = ["GET", "HEAD"]
    /// The largest request body taken (POST, PATCH, PUT); a larger one gets 413 without reaching the
    /// handler. The whole request, body included, must arrive within `requestTimeout`.
    package var maximumBodyBytes = 64 * 1024

    /// A configuration listening on `address` with the default limits.
    package init(address: HTTPListenAddress) {
        self.address = address
    }
}
#endif
