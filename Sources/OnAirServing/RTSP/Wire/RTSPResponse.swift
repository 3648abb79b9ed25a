#if os(Linux)

/// One RTSP response as the server writes it: status, reason phrase, header fields in order, body.
package struct RTSPResponse: Sendable, Equatable {
    /// The status code (200, 454...).
    package var status: Int
    /// The reason phrase ("OK"); `reasonPhrase(for:)` when not given.
    package var reason: String
    /// The header fields in the order they are written (Content-Length is written from `body`).
    package var fields: [RTSPHeaderField]
    /// The body, empty when there is none.
    package var body: [UInt8]

    /// A response of `status` with `reason` (the table's phrase when nil), `fields` and `body`.
    package init(status: Int, reason: String? = nil, fields: [RTSPHeaderField] = [], body: [UInt8] = []) {
        self.status = status
        self.reason = reason ?? Self.reasonPhrase(for: status)
        self.fields = fields
        self.body = body
    }

    /// Adds the field `name: value` after the others.
    package mutating func add(_ name: String, _ value: String) {
        fields.append(RTSPHeaderField(name, value))
    }

    /// The reason phrase RFC 2326 §7.1.1 gives `status`, "Unknown" for a code it does not list.
    package static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 413: "Request Entity Too Large"
        case 451: "Parameter Not Understood"
        case 453: "Not Enough Bandwidth"
        case 454: "Session Not Found"
        case 455: "Method Not Valid in This State"
        case 459: "Aggregate Operation Not Allowed"
        case 461: "Unsupported Transport"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "RTSP Version Not Supported"
        default: "Unknown"
        }
    }

    /// The response on the wire: "RTSP/1.0 200 OK", the fields, Content-Length when there is a
    /// body, a blank line and the body, lines ended by CRLF. Values may echo client input, so a
    /// field whose name is not a token or whose value holds a CR, LF or NUL is left out (it would
    /// split or cut the response), as is any Content-Length among `fields`; a reason phrase with
    /// such bytes is replaced by the table's. A status outside 100...999 is written as 500.
    package var bytes: [UInt8] {
        let code = (100...999).contains(status) ? status : 500
        let phrase = Self.isSafeValue(reason) ? reason : Self.reasonPhrase(for: code)
        var text = "RTSP/1.0 \(code) \(phrase)\r\n"
        for field in fields where Self.isToken(field.name) && Self.isSafeValue(field.value) && !field.isNamed("Content-Length") {
            text += "\(field.name): \(field.value)\r\n"
        }
        if !body.isEmpty { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        return Array(text.utf8) + body
    }

    /// Whether `value` holds no CR, LF or NUL.
    static func isSafeValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// Whether `name` is a non-empty RFC 2616 token (what a header name may be).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(RTSPMessageReader.isTokenByte)
    }
}
#endif
