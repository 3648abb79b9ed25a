#if os(Linux)
import OnAirCore

/// The SOAP 1.2 answers of the ONVIF services: the envelope with every namespace the bodies use,
/// text escaped for XML, and faults as ONVIF's core specification writes them.
package enum ONVIFSOAP {
    /// ONVIF's schema namespace (`tt:`).
    package static let schema = "http://www.onvif.org/ver10/schema"
    /// The device service's namespace (`tds:`).
    package static let device = "http://www.onvif.org/ver10/device/wsdl"
    /// Media ver10's namespace (`trt:`).
    package static let media = "http://www.onvif.org/ver10/media/wsdl"
    /// Media2 ver20's namespace (`tr2:`).
    package static let media2 = "http://www.onvif.org/ver20/media/wsdl"
    /// The events service's namespace (`tev:`).
    package static let events = "http://www.onvif.org/ver10/events/wsdl"
    /// The content type of every answer.
    package static let contentType = "application/soap+xml; charset=utf-8"

    /// A fault: SOAP's code (`env:Sender`, `env:Receiver`), ONVIF's subcodes, a reason, the HTTP status.
    package struct Fault: Error, Sendable, Equatable {
        /// `Sender` (the request is wrong) or `Receiver` (the device cannot).
        package var code: String
        /// ONVIF's subcodes, outermost first, without the `ter:` prefix (`ActionNotSupported`).
        package var subcodes: [String]
        /// The reason, in English.
        package var reason: String
        /// The HTTP status it goes with.
        package var status: Int

        /// A fault.
        package init(code: String, subcodes: [String], reason: String, status: Int) {
            self.code = code
            self.subcodes = subcodes
            self.reason = reason
            self.status = status
        }

        /// `env:Receiver/ter:ActionNotSupported`: an operation the device does not offer (every
        /// call that would change it, and any it does not know).
        package static func actionNotSupported(_ operation: String) -> Fault {
            Fault(
                code: "Receiver", subcodes: ["ActionNotSupported"],
                reason: "Optional Action Not Implemented: \(operation) (onair serve's ONVIF services only report)", status: 500)
        }

        /// `env:Sender/ter:NotAuthorized`, with why.
        package static func notAuthorized(_ why: String) -> Fault {
            Fault(code: "Sender", subcodes: ["NotAuthorized"], reason: "Sender not Authorized: \(why)", status: 400)
        }

        /// `env:Sender/ter:WellFormed`: a request that is not a well-formed SOAP envelope.
        package static func malformed(_ why: String) -> Fault {
            Fault(code: "Sender", subcodes: ["WellFormed"], reason: "Not well-formed SOAP: \(why)", status: 400)
        }

        /// `env:Sender/ter:InvalidArgVal/…`: an argument the device cannot take.
        package static func invalidArgument(_ subcode: String, _ why: String) -> Fault {
            Fault(code: "Sender", subcodes: ["InvalidArgVal", subcode], reason: why, status: 400)
        }

        /// The fault's `env:Fault` element.
        package var xml: String {
            var nested = ""
            for subcode in subcodes.reversed() {
                nested = "<env:Subcode><env:Value>ter:\(subcode)</env:Value>\(nested)</env:Subcode>"
            }
            return "<env:Fault><env:Code><env:Value>env:\(code)</env:Value>\(nested)</env:Code>"
                + "<env:Reason><env:Text xml:lang=\"en\">\(escaped(reason))</env:Text></env:Reason></env:Fault>"
        }
    }

    /// `body` in a SOAP 1.2 envelope declaring `env`, `ter`, `tt`, `tds`, `trt`, `tr2`, `tev`, and
    /// for the events `wsnt`, `wstop`, `wsa`, `tns1` and `xs`.
    package static func envelope(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:ter=\"http://www.onvif.org/ver10/error\""
            + " xmlns:tt=\"\(schema)\" xmlns:tds=\"\(device)\" xmlns:trt=\"\(media)\" xmlns:tr2=\"\(media2)\" xmlns:tev=\"\(events)\""
            + " xmlns:wsnt=\"http://docs.oasis-open.org/wsn/b-2\" xmlns:wstop=\"http://docs.oasis-open.org/wsn/t-1\""
            + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\" xmlns:tns1=\"http://www.onvif.org/ver10/topics\""
            + " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">"
            + "<env:Body>\(body)</env:Body></env:Envelope>"
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped (for element text and attribute values).
    package static func escaped(_ text: String) -> String { ONVIFXML.escaped(text) }

    /// `<tag>value</tag>`, the value escaped.
    package static func element(_ tag: String, _ value: String) -> String {
        "<\(tag)>\(escaped(value))</\(tag)>"
    }
}
#endif
