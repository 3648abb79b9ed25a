#if os(Linux)
/// One RTSP request's fields as `RTSPRequestRules` judges them (`RTSPRequest.head`): untrusted,
/// as bytes (a header line's length is its bytes').
package struct RTSPRequestHead: Sendable, Equatable {
    /// One header line: the header's name as the client spelled it ("CSeq") and its value.
    package struct Header: Sendable, Equatable {
        package var name: [UInt8]
        package var value: [UInt8]

        /// A header `name: value`.
        package init(name: [UInt8], value: [UInt8]) {
            self.name = name
            self.value = value
        }
    }

    /// The method ("DESCRIBE").
    package var method: String
    /// The request line's URI.
    package var uri: [UInt8]
    /// The URI's absolute path ("/live"), nil when it has none.
    package var path: [UInt8]?
    /// The header fields, in the request's order.
    package var headers: [Header]
    /// The bytes the request took (request line, headers and body), nil when that cannot be told.
    package var received: UInt64?
    /// The body's length.
    package var bodySize: UInt64

    /// A request with these fields.
    package init(
        method: String, uri: [UInt8], path: [UInt8]?, headers: [Header], received: UInt64? = nil, bodySize: UInt64 = 0
    ) {
        self.method = method
        self.uri = uri
        self.path = path
        self.headers = headers
        self.received = received
        self.bodySize = bodySize
    }
}
#endif
