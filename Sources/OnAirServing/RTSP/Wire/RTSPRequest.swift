#if os(Linux)
/// One header field of an RTSP message, `name: value`, in the order it came or is written.
package struct RTSPHeaderField: Sendable, Equatable {
    /// The field's name as spelled ("CSeq"); looked up in any case.
    package var name: String
    /// The field's value, without the whitespace around it.
    package var value: String

    /// A field `name: value`.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether this field's name is `other` in any case (ASCII).
    package func isNamed(_ other: String) -> Bool {
        let (a, b) = (name.utf8, other.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (Self.isLetter(x) && x | 0x20 == y | 0x20) }
    }

    /// Whether `byte` is an ASCII letter.
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
}

/// One RTSP request as `RTSPMessageReader` took it from a connection: request line, header fields
/// in order, body. Untrusted: its strings are the client's bytes read as UTF-8.
package struct RTSPRequest: Sendable, Equatable {
    /// The method ("DESCRIBE"), a token.
    package var method: String
    /// The request line's URI ("rtsp://host:8554/live" or "*").
    package var uri: String
    /// The request line's version ("RTSP/1.0").
    package var version: String
    /// The header fields in the order they came.
    package var fields: [RTSPHeaderField]
    /// The body (Content-Length bytes), empty when there is none.
    package var body: [UInt8]
    /// The bytes the request took: request line, header fields, blank line and body.
    package var received: Int

    /// A request with these parts.
    package init(
        method: String, uri: String, version: String = "RTSP/1.0", fields: [RTSPHeaderField] = [], body: [UInt8] = [],
        received: Int = 0
    ) {
        self.method = method
        self.uri = uri
        self.version = version
        self.fields = fields
        self.body = body
        self.received = received
    }

    /// The value of the first field named `name` (in any case), nil when there is none.
    package func header(_ name: String) -> String? {
        fields.first { $0.isNamed(name) }?.value
    }

    /// The values of all fields named `name` (in any case), in order.
    package func headers(_ name: String) -> [String] {
        fields.filter { $0.isNamed(name) }.map(\.value)
    }

    /// The first CSeq's value, nil when there is none.
    package var cseq: String? { header("CSeq") }

    /// The URI's absolute path ("/live" from "rtsp://host:8554/live?x=1" or "/live"), query
    /// dropped and not percent-decoded; nil when the URI has none ("*", "rtsp://host").
    package var path: String? { Self.path(of: uri) }

    /// The absolute path of `uri` as `path` reads it.
    package static func path(of uri: String) -> String? {
        let bytes = Array(uri.utf8)
        let slash = UInt8(ascii: "/")
        guard var begin = bytes.firstIndex(of: slash) else { return nil }
        if begin >= 1, bytes[begin - 1] == UInt8(ascii: ":"), begin + 1 < bytes.count, bytes[begin + 1] == slash {
            guard let after = bytes[(begin + 2)...].firstIndex(of: slash) else { return nil }
            begin = after
        } else if begin != 0 {
            return nil
        }
        let end = bytes[begin...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        return String(decoding: bytes[begin..<end], as: UTF8.self)
    }

    /// The request's fields as `RTSPRequestRules` judges them (`received` the bytes it took).
    package var head: RTSPRequestHead {
        RTSPRequestHead(
            method: method, uri: Array(uri.utf8), path: path.map { Array($0.utf8) },
            headers: fields.map { RTSPRequestHead.Header(name: Array($0.name.utf8), value: Array($0.value.utf8)) },
            received: UInt64(received), bodySize: UInt64(body.count))
    }
}
#endif
