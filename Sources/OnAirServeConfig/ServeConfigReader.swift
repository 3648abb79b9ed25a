#if os(Linux)
import CYAML
import Foundation

/// Reads a serve configuration file (YAML, one document whose top level is a mapping) into a
/// `ServeConfigNode` tree with libyaml's event parser.
///
/// Bounded: at most `maximumBytes` of file, `maximumDepth` levels of nesting, `maximumNodes`
/// nodes and `maximumScalarBytes` per scalar. Aliases are refused (no expansion, so no
/// "billion laughs"), as are duplicate keys, keys that are not scalars and further documents.
package enum ServeConfigReader {
    /// The largest file read (1 MiB).
    public static let maximumBytes = 1 << 20
    /// The deepest nesting of lists and mappings.
    public static let maximumDepth = 16
    /// The most nodes in one file.
    public static let maximumNodes = 100_000
    /// The longest scalar.
    public static let maximumScalarBytes = 64 * 1024

    /// Reads and parses the file at `path` (errors name the path).
    public static func read(contentsOf path: String) throws -> ServeConfigNode {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ServeConfigError(source: path, line: nil, key: nil, reason: "cannot be read")
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while bytes.count <= maximumBytes {
            guard let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
        }
        return try parse(bytes, name: path)
    }

    /// Parses `bytes`; errors name `name` as the file.
    public static func parse(_ bytes: [UInt8], name: String) throws -> ServeConfigNode {
        guard bytes.count <= maximumBytes else {
            throw ServeConfigError(source: name, line: nil, key: nil, reason: "larger than \(maximumBytes) bytes")
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw ServeConfigError(source: name, line: nil, key: nil, reason: "libyaml could not start")
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { buffer in
            // libyaml reads the bytes in place: they stay alive for the whole parse.
            yaml_parser_set_input_string(&parser, buffer.baseAddress ?? UnsafePointer(bitPattern: 1), buffer.count)
            var builder = Builder(name: name)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "not valid YAML"
                    let line = Int(parser.problem_mark.line) + 1
                    throw ServeConfigError(source: name, line: line, key: nil, reason: problem)
                }
                defer { yaml_event_delete(&event) }
                if try builder.take(&event) { break }
            }
            return builder.result ?? ServeConfigNode(.map([]), line: 1)
        }
    }

    /// Builds the tree from the parser's events with a stack of open lists and mappings.
    private struct Builder {
        /// An open list or mapping: its line, its items, and for a mapping the key waiting for its value.
        struct Open {
            var isMap: Bool
            var line: Int
            var items: [ServeConfigNode] = []
            var entries: [ServeConfigNode.Entry] = []
            var pendingKey: (String, Int)?
        }

        let name: String
        var stack: [Open] = []
        var result: ServeConfigNode?
        var documents = 0
        var nodes = 0

        init(name: String) { self.name = name }

        func error(_ line: Int, _ reason: String) -> ServeConfigError {
            ServeConfigError(source: name, line: line, key: stack.last?.pendingKey?.0, reason: reason)
        }

        /// Takes one event; true at the end of the stream.
        mutating func take(_ event: inout yaml_event_t) throws -> Bool {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return true
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                guard documents == 1 else { throw error(line, "only one YAML document is allowed") }
            case YAML_ALIAS_EVENT:
                throw error(line, "aliases (*name) are not allowed")
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                guard scalar.length <= ServeConfigReader.maximumScalarBytes else {
                    throw error(line, "a value longer than \(ServeConfigReader.maximumScalarBytes) bytes")
                }
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                try add(ServeConfigNode(.scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE), line: line))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                if let top = stack.last, top.isMap, top.pendingKey == nil {
                    throw error(line, "a key must be a plain value, not a list or mapping")
                }
                guard stack.count < ServeConfigReader.maximumDepth else {
                    throw error(line, "nested deeper than \(ServeConfigReader.maximumDepth) levels")
                }
                stack.append(Open(isMap: event.type == YAML_MAPPING_START_EVENT, line: line))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let open = stack.popLast() else { throw error(line, "unbalanced document") }
                try add(ServeConfigNode(open.isMap ? .map(open.entries) : .list(open.items), line: open.line))
            default:
                break
            }
            return false
        }

        mutating func add(_ node: ServeConfigNode) throws {
            nodes += 1
            guard nodes <= ServeConfigReader.maximumNodes else {
                throw error(node.line, "more than \(ServeConfigReader.maximumNodes) values")
            }
            guard var top = stack.popLast() else {
                guard case .map = node.content else {
                    if node.isNull { result = ServeConfigNode(.map([]), line: node.line); return }
                    throw error(node.line, "the file must be a mapping of keys to values, not \(node.kindName)")
                }
                result = node
                return
            }
            defer { stack.append(top) }
            guard top.isMap else {
                top.items.append(node)
                return
            }
            if let (key, keyLine) = top.pendingKey {
                top.entries.append(ServeConfigNode.Entry(key: key, line: keyLine, value: node))
                top.pendingKey = nil
                return
            }
            guard case .scalar(let key, _) = node.content else {
                throw error(node.line, "a key must be a plain value, not \(node.kindName)")
            }
            if top.entries.contains(where: { $0.key == key }) {
                throw ServeConfigError(source: name, line: node.line, key: key, reason: "given twice")
            }
            top.pendingKey = (key, node.line)
        }
    }
}
#endif
