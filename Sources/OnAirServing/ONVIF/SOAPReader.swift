#if os(Linux)
import OnAirCore

/// A bounded reader of the XML that SOAP requests carry (ONVIF's device, media and events
/// services; WS-Discovery's probes): elements with namespaces resolved, attributes, character
/// data with the five predefined entities and character references, CDATA, comments and
/// processing instructions skipped. A document type declaration is refused (no entity expansion),
/// and so is anything past `Limits`: the input's size, the nesting depth, the element count, the
/// attributes of one element and the length of a name. Every refusal is a `SOAPReadError`; the
/// reader works on bytes with explicit bounds and an explicit stack, so no input traps it.
package struct SOAPReader: Sendable {
    /// What one document may hold at most.
    package struct Limits: Sendable, Equatable {
        /// Bytes of the whole document.
        package var maximumBytes = 65_536
        /// Nesting depth of elements (the root is 1).
        package var maximumDepth = 32
        /// Elements in the document.
        package var maximumElements = 1024
        /// Attributes of one element, namespace declarations included.
        package var maximumAttributes = 32
        /// Bytes of one name (prefix included).
        package var maximumNameBytes = 256

        /// The defaults: 64 KiB, depth 32, 1024 elements, 32 attributes, names of 256 bytes.
        package init() {}
    }

    /// The limits in force.
    package var limits: Limits

    /// A reader with `limits`.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The root element of `bytes`, or the reason it is refused.
    package func read(_ bytes: some Collection<UInt8>) throws(SOAPReadError) -> SOAPElement {
        guard bytes.count <= limits.maximumBytes else { throw .tooLarge(limit: limits.maximumBytes) }
        var parser = Parser(bytes: Array(bytes), limits: limits)
        return try parser.document()
    }

    /// The reader's state over one document.
    private struct Parser {
        let bytes: [UInt8]
        let limits: Limits
        var at = 0
        var elements = 0
        /// The elements open now, each with its qualified name and the namespaces it declared.
        var open: [(element: SOAPElement, qualified: [UInt8], scope: [String: String])] = []

        init(bytes: [UInt8], limits: Limits) {
            self.bytes = bytes
            self.limits = limits
        }

        mutating func document() throws(SOAPReadError) -> SOAPElement {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
            var root: SOAPElement?
            while at < bytes.count {
                if open.isEmpty {
                    skipSpaces()
                    guard at < bytes.count else { break }
                    guard bytes[at] == UInt8(ascii: "<") else { throw malformed("text outside the root element") }
                }
                if starts("<?") {
                    try skip(past: Array("?>".utf8), what: "an unterminated processing instruction")
                } else if starts("<!--") {
                    try skip(past: Array("-->".utf8), what: "an unterminated comment")
                } else if starts("<!DOCTYPE") || starts("<!doctype") {
                    throw .doctype
                } else if starts("<![CDATA[") {
                    guard !open.isEmpty else { throw malformed("CDATA outside the root element") }
                    at += 9
                    let start = at
                    try skip(past: Array("]]>".utf8), what: "an unterminated CDATA section")
                    open[open.count - 1].element.text += String(decoding: bytes[start..<(at - 3)], as: UTF8.self)
                } else if starts("</") {
                    if let closed = try endTag() {
                        if open.isEmpty {
                            root = closed
                            break
                        }
                        open[open.count - 1].element.children.append(closed)
                    }
                } else if starts("<") {
                    guard root == nil else { throw malformed("a second root element") }
                    if let empty = try startTag() {
                        if open.isEmpty {
                            root = empty
                            break
                        }
                        open[open.count - 1].element.children.append(empty)
                    }
                } else {
                    try text()
                }
            }
            guard let root else { throw malformed(open.isEmpty ? "no root element" : "unclosed elements at the end") }
            // After the root: only white space, comments and processing instructions.
            while true {
                skipSpaces()
                guard at < bytes.count else { break }
                if starts("<?") {
                    try skip(past: Array("?>".utf8), what: "an unterminated processing instruction")
                } else if starts("<!--") {
                    try skip(past: Array("-->".utf8), what: "an unterminated comment")
                } else {
                    throw malformed("content after the root element")
                }
            }
            return root
        }

        func malformed(_ what: String) -> SOAPReadError { .malformed(what, offset: at) }

        func starts(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - at >= count else { return false }
            return text.withUTF8Buffer { prefix in
                for index in 0..<count where bytes[at + index] != prefix[index] { return false }
                return true
            }
        }

        mutating func skip(past end: [UInt8], what: String) throws(SOAPReadError) {
            var index = at
            while index + end.count <= bytes.count {
                if bytes[index] == end[0] && Array(bytes[index..<(index + end.count)]) == end {
                    at = index + end.count
                    return
                }
                index += 1
            }
            throw malformed(what)
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
                true
            default: false
            }
        }

        mutating func skipSpaces() {
            while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
        }

        /// A name at `at`: one or more name bytes, not starting with a digit, '-', '.' or ':'.
        mutating func name() throws(SOAPReadError) -> [UInt8] {
            let start = at
            while at < bytes.count, Self.isNameByte(bytes[at]) {
                at += 1
                guard at - start <= limits.maximumNameBytes else { throw .nameTooLong(limit: limits.maximumNameBytes) }
            }
            guard at > start else { throw malformed("a name expected") }
            let first = bytes[start]
            guard !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), first != UInt8(ascii: "-"), first != UInt8(ascii: "."),
                first != UInt8(ascii: ":")
            else { throw .malformed("a name starts with '\(Character(Unicode.Scalar(first)))'", offset: start) }
            return Array(bytes[start..<at])
        }

        /// `prefix:local` split at its one colon (prefix nil without one).
        func split(_ qualified: [UInt8]) throws(SOAPReadError) -> (prefix: String?, local: String) {
            guard let colon = qualified.firstIndex(of: UInt8(ascii: ":")) else { return (nil, String(decoding: qualified, as: UTF8.self)) }
            let local = qualified[(colon + 1)...]
            guard colon > 0, !local.isEmpty, !local.contains(UInt8(ascii: ":")) else { throw malformed("a name with a misplaced ':'") }
            return (String(decoding: qualified[..<colon], as: UTF8.self), String(decoding: local, as: UTF8.self))
        }

        func namespace(of prefix: String, extra: [String: String]) throws(SOAPReadError) -> String {
            if let uri = extra[prefix] { return uri }
            for entry in open.reversed() {
                if let uri = entry.scope[prefix] { return uri }
            }
            if prefix == "xml" { return "http://www.w3.org/XML/1998/namespace" }
            if prefix.isEmpty { return "" }
            throw .unboundPrefix(prefix)
        }

        /// A start tag at `at`: the element when it is empty (`/>`), else nil with it opened.
        mutating func startTag() throws(SOAPReadError) -> SOAPElement? {
            at += 1
            let qualified = try name()
            var raw: [(name: [UInt8], value: String)] = []
            var empty = false
            while true {
                let before = at
                skipSpaces()
                guard at < bytes.count else { throw malformed("an unterminated start tag") }
                if bytes[at] == UInt8(ascii: ">") {
                    at += 1
                    break
                }
                if bytes[at] == UInt8(ascii: "/") {
                    guard at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: ">") else { throw malformed("'/' not followed by '>'") }
                    at += 2
                    empty = true
                    break
                }
                guard at > before else { throw malformed("white space expected before an attribute") }
                let attribute = try name()
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw malformed("'=' expected after an attribute name") }
                at += 1
                skipSpaces()
                let value = try quoted()
                guard !raw.contains(where: { $0.name == attribute }) else { throw malformed("an attribute given twice") }
                raw.append((attribute, value))
                guard raw.count <= limits.maximumAttributes else { throw .tooManyAttributes(limit: limits.maximumAttributes) }
            }
            elements += 1
            guard elements <= limits.maximumElements else { throw .tooManyElements(limit: limits.maximumElements) }
            guard open.count + 1 <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
            var scope: [String: String] = [:]
            for (attribute, value) in raw {
                if attribute == Array("xmlns".utf8) {
                    scope[""] = value
                } else if attribute.starts(with: Array("xmlns:".utf8)) {
                    let prefix = String(decoding: attribute.dropFirst(6), as: UTF8.self)
                    guard !prefix.isEmpty, !prefix.contains(":"), !value.isEmpty else { throw malformed("a bad namespace declaration") }
                    scope[prefix] = value
                }
            }
            let (prefix, local) = try split(qualified)
            var element = SOAPElement(namespace: try namespace(of: prefix ?? "", extra: scope), name: local)
            for (attribute, value) in raw where attribute != Array("xmlns".utf8) && !attribute.starts(with: Array("xmlns:".utf8)) {
                let (attributePrefix, attributeLocal) = try split(attribute)
                let uri = try attributePrefix.map { (prefix) throws(SOAPReadError) in try namespace(of: prefix, extra: scope) } ?? ""
                element.attributes.append(.init(namespace: uri, name: attributeLocal, value: value))
            }
            if empty { return element }
            open.append((element, qualified, scope))
            return nil
        }

        /// An end tag at `at`: the element it closes.
        mutating func endTag() throws(SOAPReadError) -> SOAPElement? {
            at += 2
            let qualified = try name()
            skipSpaces()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { throw malformed("'>' expected to end an end tag") }
            at += 1
            guard let last = open.popLast() else { throw malformed("an end tag with no element open") }
            guard last.qualified == qualified else { throw malformed("an end tag that does not match its start tag") }
            return last.element
        }

        /// A quoted attribute value at `at`, decoded.
        mutating func quoted() throws(SOAPReadError) -> String {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                throw malformed("a quoted attribute value expected")
            }
            let quote = bytes[at]
            at += 1
            var value: [UInt8] = []
            while at < bytes.count, bytes[at] != quote {
                guard bytes[at] != UInt8(ascii: "<") else { throw malformed("'<' in an attribute value") }
                if bytes[at] == UInt8(ascii: "&") {
                    value += try entity()
                } else {
                    value.append(bytes[at])
                    at += 1
                }
            }
            guard at < bytes.count else { throw malformed("an unterminated attribute value") }
            at += 1
            return String(decoding: value, as: UTF8.self)
        }

        /// Character data at `at` up to the next '<', into the open element.
        mutating func text() throws(SOAPReadError) {
            var value: [UInt8] = []
            while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
                if bytes[at] == UInt8(ascii: "&") {
                    value += try entity()
                } else {
                    value.append(bytes[at])
                    at += 1
                }
            }
            open[open.count - 1].element.text += String(decoding: value, as: UTF8.self)
        }

        /// An entity or character reference at `at` (`&amp;`, `&#60;`, `&#x3C;`), as UTF-8.
        mutating func entity() throws(SOAPReadError) -> [UInt8] {
            let start = at
            at += 1
            while at < bytes.count, bytes[at] != UInt8(ascii: ";"), at - start <= 12 { at += 1 }
            guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else { throw .malformed("an unterminated reference", offset: start) }
            let body = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
            at += 1
            switch body {
            case "lt": return [UInt8(ascii: "<")]
            case "gt": return [UInt8(ascii: ">")]
            case "amp": return [UInt8(ascii: "&")]
            case "quot": return [UInt8(ascii: "\"")]
            case "apos": return [UInt8(ascii: "'")]
            default: break
            }
            var digits = Substring(body)
            guard digits.first == "#" else { throw .malformed("an unknown entity", offset: start) }
            digits.removeFirst()
            var radix = 10
            if digits.first == "x" {
                radix = 16
                digits.removeFirst()
            }
            guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let number = UInt32(digits, radix: radix),
                let scalar = Unicode.Scalar(number), number != 0
            else {
                throw .malformed("a bad character reference", offset: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
#endif
