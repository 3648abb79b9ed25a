#if os(Linux)
import OnAirCore

/// One XML element as `SOAPReader` gives it: its namespace (resolved from the prefixes in scope)
/// and local name, its attributes (namespace declarations left out), the character data directly
/// inside it and its child elements, in order.
package struct SOAPElement: Sendable, Equatable {
    /// One attribute: its namespace ("" when unprefixed), local name and decoded value.
    package struct Attribute: Sendable, Equatable {
        /// The namespace URI of its prefix, "" without one.
        package var namespace: String
        /// The local name.
        package var name: String
        /// The value, entities decoded.
        package var value: String

        /// An attribute.
        package init(namespace: String, name: String, value: String) {
            self.namespace = namespace
            self.name = name
            self.value = value
        }
    }

    /// The namespace URI ("" when none is in scope).
    package var namespace: String
    /// The local name (without its prefix).
    package var name: String
    /// The attributes, in document order.
    package var attributes: [Attribute] = []
    /// The character data directly inside, entities decoded, CDATA included.
    package var text = ""
    /// The child elements, in document order.
    package var children: [SOAPElement] = []

    /// An element named `name` in `namespace`.
    package init(namespace: String, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// The first child with local name `name` (and `namespace`, when given).
    package func child(_ name: String, namespace: String? = nil) -> SOAPElement? {
        children.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// Every child with local name `name`.
    package func children(_ name: String) -> [SOAPElement] {
        children.filter { $0.name == name }
    }

    /// The first descendant (depth first, itself excluded) with local name `name`.
    package func descendant(_ name: String) -> SOAPElement? {
        for child in children {
            if child.name == name { return child }
            if let found = child.descendant(name) { return found }
        }
        return nil
    }

    /// The value of the attribute with local name `name`, whatever its namespace.
    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The text with surrounding white space removed.
    package var value: String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    /// The trimmed text of the child named `name`, or nil without such a child.
    package func childValue(_ name: String) -> String? {
        child(name)?.value
    }
}
#endif
