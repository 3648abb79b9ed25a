#if os(Linux)
/// The RTSP messages of one connection, read incrementally from untrusted bytes as they arrive:
/// requests, interleaved frames (`$`, channel, 16-bit big-endian length, payload) between them,
/// and a refusal after which the connection is to be closed.
///
/// Bounded: a request line or header line over `lineLimit` bytes, request line and header fields
/// together (line ends included) over `headLimit` bytes, more than `fieldLimit` header fields, a
/// Content-Length over `bodyLimit` or an interleaved frame's payload over `interleavedLimit` are
/// refused with 413 as soon as the byte that passes the bound is read, so that after `next()`
/// returns nil at most `bufferLimit` bytes are held. A request line that is not
/// `METHOD SP URI SP RTSP/1.d`, a header line that is not `token: value` (folded lines included),
/// a control byte other than tab in a line, a bare CR, a Content-Length that is not a plain decimal
/// (or two that differ) and more than `emptyLineLimit` empty lines before a request are refused
/// with 400. Lines end with CRLF or a bare LF. A complete request is then judged by `rules`, and a
/// status other than 200 refuses it. Each byte is scanned once; taken bytes are dropped when
/// `next()` runs out of items.
package struct RTSPMessageReader: Sendable {
    /// One thing read from the connection.
    package enum Item: Sendable, Equatable {
        /// A complete request that passed the bounds and the rules.
        case request(RTSPRequest)
        /// An interleaved frame: RTCP (or RTP) the client sends over the RTSP connection.
        case interleaved(channel: UInt8, payload: [UInt8])
        /// The connection is to be answered `status` (with `reason`) and closed; nothing follows.
        case refused(status: Int, reason: String)
    }

    /// Where the reader is between and within items.
    private enum Phase: Sendable {
        /// Between items: skipping empty lines, or waiting for a request or a frame to start.
        case idle
        /// In a request's request line and header fields (`scan` is the next byte to look at).
        case head
        /// After a request's blank line (at `scan`), waiting for its body of this length.
        case body(Int)
        /// Refused: reads and gives nothing more.
        case closed
    }

    /// The longest request line or header line, line end not counted (bytes).
    package let lineLimit: Int
    /// The most bytes of request line and header fields, line ends and blank line counted.
    package let headLimit: Int
    /// The longest body (Content-Length).
    package let bodyLimit: Int
    /// The most header fields in one request.
    package let fieldLimit: Int
    /// The longest interleaved frame payload.
    package let interleavedLimit: Int
    /// The most empty lines skipped before a request or frame.
    package let emptyLineLimit: Int
    /// The rules every complete request is judged by, none when nil.
    package let rules: RTSPRequestRules?

    /// The bytes held: the unfinished item from `start` on, taken items before it.
    private var buffer: [UInt8] = []
    /// The first byte of the item being read.
    private var start = 0
    /// The next byte of the head to look at (after the request's blank line in `.body`).
    private var scan = 0
    /// The first byte of the head's current line.
    private var lineStart = 0
    /// The empty lines skipped since the last item.
    private var emptyLines = 0
    /// The request line's parts once read.
    private var requestLine: (method: String, uri: String, version: String)?
    /// The header fields read so far.
    private var fields: [RTSPHeaderField] = []
    /// What the reader is reading.
    private var phase = Phase.idle

    /// A reader with these bounds (the defaults: 4000-byte lines, 16 KiB of head, 16 KiB of body,
    /// 64 fields, 16 KiB interleaved payloads, 16 empty lines) judging requests by `rules`.
    package init(
        rules: RTSPRequestRules? = nil, lineLimit: Int = RTSPRequestRules.lineLimit, headLimit: Int = 16_384,
        bodyLimit: Int = 16_384, fieldLimit: Int = 64, interleavedLimit: Int = 16_384, emptyLineLimit: Int = 16
    ) {
        self.rules = rules
        self.lineLimit = max(1, lineLimit)
        self.headLimit = max(1, headLimit)
        self.bodyLimit = max(0, bodyLimit)
        self.fieldLimit = max(0, fieldLimit)
        self.interleavedLimit = max(0, min(65_535, interleavedLimit))
        self.emptyLineLimit = max(0, emptyLineLimit)
    }

    /// The most bytes held after `next()` has returned nil: a whole head and body, or a whole frame.
    package var bufferLimit: Int { max(headLimit + bodyLimit, 4 + interleavedLimit) }

    /// The bytes held that no item has taken yet.
    package var buffered: Int { buffer.count - start }

    /// Whether the reader has refused and reads nothing more.
    package var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Adds bytes read from the connection (ignored once refused). Take items with `next()` until
    /// it returns nil before appending more: bounds are checked there.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the connection, as `append(_:)` of a raw buffer.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next item, nil when more bytes are needed (or after a refusal).
    package mutating func next() -> Item? {
        while true {
            switch phase {
            case .closed:
                return nil
            case .idle:
                guard start < buffer.count else { return waiting() }
                switch buffer[start] {
                case UInt8(ascii: "$"):
                    guard buffer.count - start >= 4 else { return waiting() }
                    let length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
                    guard length <= interleavedLimit else { return refuse(413) }
                    guard buffer.count - start >= 4 + length else { return waiting() }
                    let item = Item.interleaved(channel: buffer[start + 1], payload: Array(buffer[start + 4..<start + 4 + length]))
                    start += 4 + length
                    emptyLines = 0
                    return item
                case 0x0A:
                    start += 1
                    emptyLines += 1
                case 0x0D:
                    guard start + 1 < buffer.count else { return waiting() }
                    guard buffer[start + 1] == 0x0A else { return refuse(400) }
                    start += 2
                    emptyLines += 1
                default:
                    phase = .head
                    scan = start
                    lineStart = start
                    requestLine = nil
                    fields = []
                }
                if emptyLines > emptyLineLimit { return refuse(400) }
            case .head:
                if let refusal = readHead() { return refusal }
                if case .head = phase { return waiting() }
            case .body(let length):
                guard buffer.count - scan >= length else { return waiting() }
                return take(bodyLength: length)
            }
        }
    }

    /// Reads the head's complete lines from `scan` on: a refusal, or nil having read them all
    /// (the phase is `.body` after the blank line, still `.head` when a line is unfinished).
    private mutating func readHead() -> Item? {
        while let newline = buffer[scan...].firstIndex(of: 0x0A) {
            let end = newline > lineStart && buffer[newline - 1] == 0x0D ? newline - 1 : newline
            guard end - lineStart <= lineLimit, newline + 1 - start <= headLimit else { return refuse(413) }
            let line = buffer[lineStart..<end]
            scan = newline + 1
            lineStart = scan
            if requestLine == nil {
                guard let parts = Self.requestLine(line) else { return refuse(400) }
                requestLine = parts
            } else if line.isEmpty {
                let lengths = fields.filter { $0.isNamed("Content-Length") }.map { Self.decimal($0.value) }
                guard let length = lengths.first ?? 0, lengths.allSatisfy({ $0 == length }) else { return refuse(400) }
                guard length <= bodyLimit else { return refuse(413) }
                phase = .body(length)
                return nil
            } else {
                guard let field = Self.field(line) else { return refuse(400) }
                guard fields.count < fieldLimit else { return refuse(413) }
                fields.append(field)
            }
        }
        scan = buffer.count
        let pending = buffer.count - lineStart
        let overLine = pending > lineLimit + 1 || (pending == lineLimit + 1 && buffer[buffer.count - 1] != 0x0D)
        if overLine || buffer.count - start > headLimit { return refuse(413) }
        return nil
    }

    /// The request whose head ends at `scan`, with the `bodyLength` bytes after it, judged by the
    /// rules; the reader goes back to idle (or is closed by a refusal).
    private mutating func take(bodyLength: Int) -> Item {
        let parts = requestLine ?? (method: "", uri: "", version: "")
        let end = scan + bodyLength
        let request = RTSPRequest(
            method: parts.method, uri: parts.uri, version: parts.version, fields: fields, body: Array(buffer[scan..<end]),
            received: end - start)
        start = end
        phase = .idle
        emptyLines = 0
        requestLine = nil
        fields = []
        if let status = rules?.status(of: request.head), status != 200 { return refuse(status) }
        return .request(request)
    }

    /// Drops the taken bytes and returns nil (more bytes are needed).
    private mutating func waiting() -> Item? {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scan -= start
            lineStart -= start
            start = 0
        }
        return nil
    }

    /// Closes the reader with `status`, dropping what it holds.
    private mutating func refuse(_ status: Int) -> Item {
        phase = .closed
        buffer = []
        start = 0
        scan = 0
        lineStart = 0
        fields = []
        requestLine = nil
        return .refused(status: status, reason: RTSPResponse.reasonPhrase(for: status))
    }

    /// The method, URI and version of `METHOD SP URI SP RTSP/1.d`, nil when `line` is not that.
    static func requestLine(_ line: ArraySlice<UInt8>) -> (method: String, uri: String, version: String)? {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { return nil }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        let version = parts[2]
        guard version.count == 8, version.starts(with: "RTSP/1.".utf8), let digit = version.last, (0x30...0x39).contains(digit)
        else { return nil }
        return (
            String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), String(decoding: version, as: UTF8.self)
        )
    }

    /// The field of `token ":" value` (whitespace around the value dropped), nil when `line` is not
    /// that or holds a control byte other than tab.
    static func field(_ line: ArraySlice<UInt8>) -> RTSPHeaderField? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else { return nil }
        let name = line[..<colon]
        guard name.allSatisfy(isTokenByte) else { return nil }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        var value = line[(colon + 1)...].drop(while: isSpace)
        while let last = value.last, isSpace(last) { value = value.dropLast() }
        guard value.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 }) else { return nil }
        return RTSPHeaderField(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// The value of a plain decimal (`Int.max` past 9 digits), nil for anything else.
    static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return text.utf8.count > 9 ? Int.max : Int(text)
    }

    /// Whether `byte` may be in an RFC 2616 token (a method or header name).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
#endif
