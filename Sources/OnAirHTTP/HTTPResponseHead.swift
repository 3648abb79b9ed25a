#if os(Linux)
import Foundation

/// The status line and headers of an HTTP/1.x response (what a client such as OnAir's WHIP output
/// reads from a server), read from untrusted bytes with every
/// read bounds-checked (fuzzed: Fuzz/FuzzHTTPResponse).
package struct HTTPResponseHead: Sendable, Equatable {
    /// The most bytes a head may take (status line and headers).
    package static let maximumBytes = 16 * 1024
    /// The status code (100…599).
    package var status: Int
    /// The reason phrase, as sent.
    package var reason: String
    /// The header fields in order, names as sent.
    package var headers: [(name: String, value: String)]
    /// Where the body starts in the bytes parsed.
    package var bodyOffset: Int

    /// The first value of the header `name` (case-insensitive).
    package func value(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body's length from Content-Length, nil when absent; throws for a malformed one.
    package func contentLength() throws(HTTPResponseError) -> Int? {
        guard let text = value("Content-Length") else { return nil }
        guard let length = Int(text.trimmingCharacters(in: [" ", "\t"])), length >= 0 else {
            throw HTTPResponseError("bad Content-Length '\(text.prefix(40))'")
        }
        return length
    }

    /// Equal status, reason, headers (in order) and body offset.
    package static func == (a: HTTPResponseHead, b: HTTPResponseHead) -> Bool {
        a.status == b.status && a.reason == b.reason && a.bodyOffset == b.bodyOffset
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    /// Parses the head at the start of `bytes`: nil while the blank line ending it has not
    /// arrived (and `bytes` is within `maximumBytes`), else the head or a thrown error.
    package static func parse(_ bytes: [UInt8]) throws(HTTPResponseError) -> HTTPResponseHead? {
        guard let end = headEnd(bytes) else {
            if bytes.count > maximumBytes { throw HTTPResponseError("the response head is over \(maximumBytes) bytes") }
            return nil
        }
        guard end <= maximumBytes else { throw HTTPResponseError("the response head is over \(maximumBytes) bytes") }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index + 1 < end {
            if bytes[index] == 13 && bytes[index + 1] == 10 {
                lines.append(bytes[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<end])  // the last line ends at the blank line
        guard let statusLine = lines.first else { throw HTTPResponseError("no status line") }
        let (status, reason) = try parseStatusLine(statusLine)
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw HTTPResponseError("a header line without a name")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            guard name.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { throw HTTPResponseError("a header name with spaces or controls") }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: [" ", "\t"])
            headers.append((name, value))
        }
        return HTTPResponseHead(status: status, reason: reason, headers: headers, bodyOffset: end + 4)
    }

    /// The index of the CR LF CR LF that ends the head, if present.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// "HTTP/1.1 201 Created" → (201, "Created").
    private static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTPResponseError) -> (Int, String) {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { throw HTTPResponseError("not an HTTP/1.x response") }
        guard parts[1].count == 3, let status = Int(parts[1]), (100...599).contains(status) else {
            throw HTTPResponseError("bad status '\(parts[1].prefix(10))'")
        }
        return (status, parts.count > 2 ? String(parts[2]) : "")
    }
}

/// An HTTP response that cannot be read.
package struct HTTPResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with it.
    package var description: String
    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}
#endif
