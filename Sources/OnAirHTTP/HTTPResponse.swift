#if os(Linux)
/// What the handler answers: a status, headers, and a body of bytes or a continuous stream.
package struct HTTPResponse: Sendable {
    /// The body of a response.
    package enum Body: Sendable {
        /// A complete body, sent with its length.
        case bytes([UInt8])
        /// A continuous body (chunked), read from the source until it ends or the peer leaves.
        case stream(any HTTPStreamSource)
        /// An answer given later by whoever holds the pending response (see `HTTPPendingResponse`).
        case pending(HTTPPendingResponse)
    }

    /// The HTTP status code.
    package var status: Int
    /// Header fields besides Content-Length / Transfer-Encoding, which the server sets.
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: Body

    /// Creates a response.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text response, e.g. for errors.
    package static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-cache")],
            body: .bytes(Array((text + "\n").utf8)))
    }
}
#endif
