#if os(Linux)
/// One node of a serve configuration file as read, before any key is interpreted: a scalar, a
/// list or a mapping, each with the line it starts on (1-based).
///
/// The generic tree the key table (`ServeConfigKey`) reads its values from; structured keys with
/// no flag (`users:`) are handed on as nodes to their own parsers.
package struct ServeConfigNode: Sendable, Equatable {
    /// One `key: value` entry of a mapping, in file order.
    public struct Entry: Sendable, Equatable {
        /// The key as written.
        public var key: String
        /// The line of the key (1-based).
        public var line: Int
        /// The value.
        public var value: ServeConfigNode

        /// Creates an entry.
        public init(key: String, line: Int, value: ServeConfigNode) {
            self.key = key
            self.line = line
            self.value = value
        }
    }

    /// What a node holds.
    public indirect enum Content: Sendable, Equatable {
        /// A scalar's text; `plain` when it was written without quotes (so `~` or nothing reads as null).
        case scalar(String, plain: Bool)
        /// A sequence.
        case list([ServeConfigNode])
        /// A mapping, entries in file order (keys are unique: the reader refuses duplicates).
        case map([Entry])
    }

    /// What the node holds.
    public var content: Content
    /// The line the node starts on (1-based).
    public var line: Int

    /// Creates a node.
    public init(_ content: Content, line: Int) {
        self.content = content
        self.line = line
    }

    /// The scalar's text, or nil for a list, a mapping or a null.
    public var scalar: String? {
        guard case .scalar(let text, _) = content, !isNull else { return nil }
        return text
    }

    /// Whether the node is a plain null (`~`, `null` or nothing after the colon).
    public var isNull: Bool {
        guard case .scalar(let text, let plain) = content, plain else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// The value under `key` when the node is a mapping.
    public subscript(key: String) -> ServeConfigNode? {
        guard case .map(let entries) = content else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// What kind of node this is, for messages ("a scalar", "a list", "a mapping").
    public var kindName: String {
        switch content {
        case .scalar: isNull ? "empty" : "a scalar"
        case .list: "a list"
        case .map: "a mapping"
        }
    }
}
#endif
