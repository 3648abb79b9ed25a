#if os(Linux)
import Foundation
import OnAirCore

/// A WS-Discovery request (2005/04, as ONVIF uses it) read from one UDP datagram: a `Probe` (the
/// types and scopes it looks for) or a `Resolve` (the endpoint it names). Read with `SOAPReader`
/// under small limits — a datagram of 8 KiB at most, 16 levels, 128 elements — and anything else
/// (another action, no `MessageID`, a malformed envelope) is no request: WS-Discovery answers to
/// spoofed sources are an amplification vector, so a doubtful datagram is dropped, never answered.
package enum WSDiscoveryRequest: Sendable, Equatable {
    /// A Probe: its `MessageID`, the local names of the types it asks for (empty: any) and the
    /// scopes with their matching rule (nil: RFC 3986 prefix matching).
    case probe(messageID: String, types: [String], scopes: [String], matchBy: String?)
    /// A Resolve of the endpoint `address` (`urn:uuid:…`).
    case resolve(messageID: String, address: String)

    /// WS-Discovery's namespace.
    package static let discovery = "http://schemas.xmlsoap.org/ws/2005/04/discovery"
    /// WS-Addressing's namespace (2004/08).
    package static let addressing = "http://schemas.xmlsoap.org/ws/2004/08/addressing"
    /// The largest datagram read.
    package static let maximumBytes = 8192

    /// The reader's limits for datagrams.
    package static var limits: SOAPReader.Limits {
        var limits = SOAPReader.Limits()
        limits.maximumBytes = maximumBytes
        limits.maximumDepth = 16
        limits.maximumElements = 128
        limits.maximumAttributes = 16
        return limits
    }

    /// The request in `datagram`, or nil when it is none (or not one to answer).
    package init?(datagram: some Collection<UInt8>) {
        guard datagram.count <= Self.maximumBytes, let envelope = try? SOAPEnvelope(datagram, reader: SOAPReader(limits: Self.limits))
        else { return nil }
        guard let messageID = envelope.header?.child("MessageID", namespace: Self.addressing)?.value, !messageID.isEmpty,
            messageID.utf8.count <= 256, envelope.operation.namespace == Self.discovery
        else { return nil }
        let operation = envelope.operation
        switch operation.name {
        case "Probe":
            let types = (operation.child("Types", namespace: Self.discovery)?.value ?? "").split(whereSeparator: \.isWhitespace).map {
                String($0.split(separator: ":").last ?? $0)
            }
            let scopes = operation.child("Scopes", namespace: Self.discovery)
            let list = (scopes?.value ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            guard types.count <= 16, list.count <= 16 else { return nil }
            self = .probe(messageID: messageID, types: types, scopes: list, matchBy: scopes?.attribute("MatchBy"))
        case "Resolve":
            guard let address = operation.child("EndpointReference", namespace: Self.addressing)?.child("Address")?.value,
                !address.isEmpty
            else { return nil }
            self = .resolve(messageID: messageID, address: address)
        default:
            return nil
        }
    }
}

/// What the device tells WS-Discovery clients: its endpoint, types and scopes, and the messages
/// (ProbeMatches, ResolveMatches, Hello, Bye) that carry them with the XAddrs of one interface.
package struct WSDiscoveryDevice: Sendable, Equatable {
    /// The endpoint, `urn:uuid:…`, stable across restarts.
    package var endpoint: String
    /// The scopes (`onvif://www.onvif.org/…`).
    package var scopes: [String]
    /// The types' local names, as announced: `dn:NetworkVideoTransmitter tds:Device`.
    package static let types = ["NetworkVideoTransmitter", "Device"]
    /// The instance of this run (WS-Discovery's AppSequence: a new one at each start).
    package var instance: Int

    /// A device with `endpoint` and `scopes`, in run `instance`.
    package init(endpoint: String, scopes: [String], instance: Int) {
        self.endpoint = endpoint
        self.scopes = scopes
        self.instance = instance
    }

    /// Whether `request` asks for this device: a Probe whose types are all ours (by local name)
    /// and whose scopes each match one of ours; a Resolve of our endpoint.
    package func matches(_ request: WSDiscoveryRequest) -> Bool {
        switch request {
        case .resolve(_, let address):
            return address == endpoint
        case .probe(_, let types, let wanted, let matchBy):
            guard types.allSatisfy(Self.types.contains) else { return false }
            return wanted.allSatisfy { scope in scopes.contains { Self.scope($0, matches: scope, by: matchBy) } }
        }
    }

    /// Whether our scope `have` matches the probe's `wanted` under `matchBy`: RFC 3986 (the
    /// default: the same scheme and authority, case-insensitively, and `wanted`'s path segments
    /// a prefix of ours) or strcmp0 (the same string); other rules match nothing.
    package static func scope(_ have: String, matches wanted: String, by matchBy: String?) -> Bool {
        switch matchBy {
        case nil, "http://schemas.xmlsoap.org/ws/2005/04/discovery/rfc3986":
            func parts(_ text: String) -> (String, [Substring])? {
                guard let range = text.range(of: "://") else { return nil }
                let rest = text[range.upperBound...]
                let segments = rest.split(separator: "/", omittingEmptySubsequences: false)
                guard let authority = segments.first else { return nil }
                let head = text[..<range.upperBound].lowercased() + authority.lowercased()
                return (head, Array(segments.dropFirst().filter { !$0.isEmpty }))
            }
            guard let ours = parts(have), let theirs = parts(wanted), ours.0 == theirs.0 else { return false }
            return theirs.1.count <= ours.1.count && zip(theirs.1, ours.1).allSatisfy { $0 == $1 }
        case "http://schemas.xmlsoap.org/ws/2005/04/discovery/strcmp0":
            return have == wanted
        default:
            return false
        }
    }

    /// The answer to `request` (which `matches`), with `xaddrs` (the service addresses on the
    /// interface it came in on) and a fresh `messageID`.
    package func answer(to request: WSDiscoveryRequest, xaddrs: [String], messageID: String, number: Int) -> String {
        let (relatesTo, action, wrapper, item): (String, String, String, String)
        switch request {
        case .probe(let id, _, _, _): (relatesTo, action, wrapper, item) = (id, "ProbeMatches", "ProbeMatches", "ProbeMatch")
        case .resolve(let id, _): (relatesTo, action, wrapper, item) = (id, "ResolveMatches", "ResolveMatches", "ResolveMatch")
        }
        return Self.envelope(
            action: action, messageID: messageID, relatesTo: relatesTo,
            to: "http://schemas.xmlsoap.org/ws/2004/08/addressing/role/anonymous",
            sequence: (instance, number),
            body: "<d:\(wrapper)><d:\(item)>\(description(xaddrs: xaddrs))</d:\(item)></d:\(wrapper)>")
    }

    /// Hello (the device arrives: `xaddrs` on one interface) or Bye (it leaves: `xaddrs` nil).
    package func announcement(hello xaddrs: [String]?, messageID: String, number: Int) -> String {
        let body =
            xaddrs.map { "<d:Hello>\(description(xaddrs: $0))</d:Hello>" }
            ?? "<d:Bye><a:EndpointReference><a:Address>\(ONVIFXML.escaped(endpoint))</a:Address></a:EndpointReference></d:Bye>"
        return Self.envelope(
            action: xaddrs == nil ? "Bye" : "Hello", messageID: messageID, relatesTo: nil,
            to: "urn:schemas-xmlsoap-org:ws:2005:04:discovery", sequence: (instance, number), body: body)
    }

    /// EndpointReference, Types, Scopes, XAddrs and MetadataVersion.
    private func description(xaddrs: [String]) -> String {
        "<a:EndpointReference><a:Address>\(ONVIFXML.escaped(endpoint))</a:Address></a:EndpointReference>"
            + "<d:Types>dn:NetworkVideoTransmitter tds:Device</d:Types>"
            + "<d:Scopes>\(ONVIFXML.escaped(scopes.joined(separator: " ")))</d:Scopes>"
            + "<d:XAddrs>\(ONVIFXML.escaped(xaddrs.joined(separator: " ")))</d:XAddrs><d:MetadataVersion>1</d:MetadataVersion>"
    }

    private static func envelope(
        action: String, messageID: String, relatesTo: String?, to: String, sequence: (Int, Int), body: String
    ) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\""
            + " xmlns:a=\"\(WSDiscoveryRequest.addressing)\" xmlns:d=\"\(WSDiscoveryRequest.discovery)\""
            + " xmlns:dn=\"http://www.onvif.org/ver10/network/wsdl\" xmlns:tds=\"http://www.onvif.org/ver10/device/wsdl\"><s:Header>"
            + "<a:MessageID>\(ONVIFXML.escaped(messageID))</a:MessageID>"
            + (relatesTo.map { "<a:RelatesTo>\(ONVIFXML.escaped($0))</a:RelatesTo>" } ?? "") + "<a:To>\(to)</a:To>"
            + "<a:Action>\(WSDiscoveryRequest.discovery)/\(action)</a:Action>"
            + "<d:AppSequence InstanceId=\"\(sequence.0)\" MessageNumber=\"\(sequence.1)\"/></s:Header><s:Body>\(body)</s:Body></s:Envelope>"
    }
}
#endif
