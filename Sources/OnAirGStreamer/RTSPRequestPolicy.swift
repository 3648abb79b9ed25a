#if os(Linux)
/// One RTSP request as the shim hands it over before gst-rtsp-server handles it: its fields as
/// GStreamer parsed them, untrusted, as bytes (a header line's length is its bytes').
package struct RTSPRequestHead: Sendable, Equatable {
    /// One header line: the header's name as GStreamer spells it ("CSeq") and its value.
    package struct Header: Sendable, Equatable {
        package var name: [UInt8]
        package var value: [UInt8]

        /// A header `name: value`.
        package init(name: [UInt8], value: [UInt8]) {
            self.name = name
            self.value = value
        }
    }

    /// The method ("DESCRIBE"), empty when GStreamer knows none.
    package var method: String
    /// The request line's URI.
    package var uri: [UInt8]
    /// The URI's absolute path ("/live"), nil when it has none.
    package var path: [UInt8]?
    /// The headers GStreamer knows by name, in its order of fields (custom headers are only seen
    /// in `received`: GStreamer keeps no public list of them).
    package var headers: [Header]
    /// The bytes the connection took from its socket for the request (request line, headers and
    /// body, interleaved RTP/RTCP not counted), nil when that cannot be told.
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

/// What an `RTSPServer` asks about every request before gst-rtsp-server handles it (OnAirServing's
/// `RTSPRequestRules`). Called on gst-rtsp-server's threads: thread-safe, quick, never blocking.
package protocol RTSPRequestPolicy: Sendable {
    /// 200 lets `request` through; anything else is the RTSP status code it is refused with.
    func status(of request: RTSPRequestHead) -> Int
}
#endif
