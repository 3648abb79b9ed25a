#if os(Linux)
import Foundation
import OnAirCore

/// The credentials of one RTSP `Authorization` value, as `RTSPKeyring` reads them from untrusted
/// bytes: `Digest` and comma-separated parameters (`name=token` or `name="quoted \" string"`,
/// optional spaces around `=` and `,`) or `Basic` and base64 of `user:password`. Scheme and
/// parameter names are case-insensitive (names are kept lowercased). Nil for anything else: a
/// value over `maximumBytes`, over `maximumParameters` parameters, one named twice, an
/// unterminated quoted string, a control byte, text that is not UTF-8, malformed base64, a Basic
/// value without `:`.
package enum RTSPCredential: Sendable, Equatable {
    /// Digest parameters by lowercased name.
    case digest([String: String])
    /// A Basic user name and password.
    case basic(user: String, password: String)

    /// The longest value parsed (bytes); gst-rtsp-server's header lines are shorter still.
    package static let maximumBytes = 4096
    /// The most Digest parameters parsed.
    package static let maximumParameters = 16

    /// Parses one Authorization value; nil when it is neither well-formed Digest nor Basic.
    package init?(_ header: String) {
        guard header.utf8.count <= Self.maximumBytes else { return nil }
        var reader = Reader(bytes: Array(header.utf8))
        reader.skipSpaces()
        let scheme = reader.token()
        guard reader.skipSpaces() > 0 else { return nil }
        switch Reader.text(Reader.lowercased(scheme)) {
        case "digest"?:
            guard let parameters = Self.parameters(&reader) else { return nil }
            self = .digest(parameters)
        case "basic"?:
            guard let (user, password) = Self.basic(&reader) else { return nil }
            self = .basic(user: user, password: password)
        default:
            return nil
        }
    }

    /// Digest's parameters up to the end of the value.
    private static func parameters(_ reader: inout Reader) -> [String: String]? {
        var parameters: [String: String] = [:]
        while true {
            let name = reader.token()
            guard !name.isEmpty, parameters.count < maximumParameters else { return nil }
            reader.skipSpaces()
            guard reader.take(UInt8(ascii: "=")) else { return nil }
            reader.skipSpaces()
            let value: [UInt8]? = reader.peek == UInt8(ascii: "\"") ? reader.quoted() : reader.bare().map { Array($0) }
            guard let value, let text = Reader.text(value),
                let key = Reader.text(Reader.lowercased(name)), parameters[key] == nil
            else { return nil }
            parameters[key] = text
            reader.skipSpaces()
            if reader.atEnd { return parameters }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
            reader.skipSpaces()
        }
    }

    /// Basic's user and password, from base64 up to the end of the value.
    private static func basic(_ reader: inout Reader) -> (String, String)? {
        let encoded = reader.bare()
        reader.skipSpaces()
        guard reader.atEnd, let encoded, let text = Reader.text(encoded), let data = Data(base64Encoded: text) else { return nil }
        let bytes = Array(data)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), let user = Reader.text(bytes[..<colon]),
            let password = Reader.text(bytes[(colon + 1)...])
        else { return nil }
        return (user, password)
    }

    /// A cursor over the value's bytes; every read stops at the end.
    struct Reader {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[index] }

        /// Skips spaces and tabs: how many.
        @discardableResult
        mutating func skipSpaces() -> Int {
            let start = index
            while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
            return index - start
        }

        /// Takes `byte` when it comes next.
        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        /// A token (RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``), maybe empty.
        mutating func token() -> ArraySlice<UInt8> {
            let start = index
            while let byte = peek, Self.isTokenByte(byte) { index += 1 }
            return bytes[start..<index]
        }

        /// An unquoted value: visible ASCII but `,` and `"`; nil when empty.
        mutating func bare() -> ArraySlice<UInt8>? {
            let start = index
            while let byte = peek, byte > 0x20, byte < 0x7F, byte != UInt8(ascii: ","), byte != UInt8(ascii: "\"") { index += 1 }
            return index > start ? bytes[start..<index] : nil
        }

        /// A quoted string with `\` escapes, without its quotes; nil when it does not end or holds
        /// a control byte.
        mutating func quoted() -> [UInt8]? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var value: [UInt8] = []
            while var byte = peek {
                index += 1
                if byte == UInt8(ascii: "\"") { return value }
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = peek else { return nil }
                    index += 1
                    byte = escaped
                }
                guard byte >= 0x20 || byte == 0x09, byte != 0x7F else { return nil }
                value.append(byte)
            }
            return nil
        }

        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }

        static func lowercased(_ bytes: some Collection<UInt8>) -> [UInt8] {
            bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        }

        /// `bytes` as UTF-8 text, nil when they are not.
        static func text(_ bytes: some Collection<UInt8>) -> String? {
            String(bytes: Array(bytes), encoding: .utf8)
        }
    }
}
#endif
