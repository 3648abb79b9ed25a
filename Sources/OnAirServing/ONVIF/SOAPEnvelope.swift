#if os(Linux)
import OnAirCore

/// A SOAP request read with `SOAPReader`: its version (by the envelope's namespace), its header's
/// entries and the body's first element, which names the operation (`GetProfiles` in
/// ONVIF's media namespace).
package struct SOAPEnvelope: Sendable, Equatable {
    /// SOAP 1.2's envelope namespace (what ONVIF speaks).
    package static let soap12 = "http://www.w3.org/2003/05/soap-envelope"
    /// SOAP 1.1's envelope namespace (some WS-Discovery clients send it).
    package static let soap11 = "http://schemas.xmlsoap.org/soap/envelope/"

    /// The envelope's namespace: `soap12` or `soap11`.
    package var namespace: String
    /// The header, when there is one.
    package var header: SOAPElement?
    /// The body's first element: the operation asked for.
    package var operation: SOAPElement

    /// The envelope in `bytes`, or why it is refused.
    package init(_ bytes: some Collection<UInt8>, reader: SOAPReader = SOAPReader()) throws(SOAPReadError) {
        let root = try reader.read(bytes)
        guard root.name == "Envelope", root.namespace == Self.soap12 || root.namespace == Self.soap11 else {
            throw .notAnEnvelope("the root is not a SOAP Envelope")
        }
        namespace = root.namespace
        header = root.child("Header", namespace: root.namespace)
        guard let body = root.child("Body", namespace: root.namespace) else { throw .notAnEnvelope("no Body") }
        guard let operation = body.children.first else { throw .notAnEnvelope("an empty Body") }
        self.operation = operation
    }
}
#endif
