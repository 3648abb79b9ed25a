#if os(Linux)
import Foundation
import OnAirCore
import OnAirServing
import Testing

/// WS-Discovery's reader and answers without a socket: Probes as ONVIF tools and `wsdiscovery`
/// send them (types by local name, scopes by RFC 3986 prefix or strcmp0), Resolve of our
/// endpoint, what is dropped (no MessageID, another action, too large, not SOAP), the
/// ProbeMatches read back with its RelatesTo, types and XAddrs, Hello and Bye, the rate limit
/// on an injected clock and the answers' random wait (APP_MAX_DELAY) from an injected random source.
@Suite struct WSDiscoveryTests {
    static let device = WSDiscoveryDevice(
        endpoint: "urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
        scopes: [
            "onvif://www.onvif.org/type/Network_Video_Transmitter", "onvif://www.onvif.org/Profile/Streaming",
            "onvif://www.onvif.org/name/OnAir",
        ],
        instance: 7)

    static func probe(_ body: String, messageID: String? = "uuid:1234", action: String = "Probe") -> [UInt8] {
        let header = messageID.map { "<a:MessageID>\($0)</a:MessageID>" } ?? ""
        return Array(
            ("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:a=\"\(WSDiscoveryRequest.addressing)\""
                + " xmlns:d=\"\(WSDiscoveryRequest.discovery)\" xmlns:dn=\"http://www.onvif.org/ver10/network/wsdl\"><s:Header>\(header)"
                + "<a:Action>\(WSDiscoveryRequest.discovery)/\(action)</a:Action></s:Header><s:Body>\(body)</s:Body></s:Envelope>").utf8)
    }

    @Test func probesAreMatchedByTypesAndScopes() throws {
        let any = try #require(WSDiscoveryRequest(datagram: Self.probe("<d:Probe/>")))
        #expect(any == .probe(messageID: "uuid:1234", types: [], scopes: [], matchBy: nil))
        #expect(Self.device.matches(any))
        let typed = try #require(
            WSDiscoveryRequest(datagram: Self.probe("<d:Probe><d:Types>dn:NetworkVideoTransmitter</d:Types></d:Probe>")))
        #expect(Self.device.matches(typed))
        let printer = try #require(WSDiscoveryRequest(datagram: Self.probe("<d:Probe><d:Types>wprt:PrintDeviceType</d:Types></d:Probe>")))
        #expect(!Self.device.matches(printer))
        let scoped = try #require(
            WSDiscoveryRequest(datagram: Self.probe("<d:Probe><d:Scopes>ONVIF://www.onvif.org/Profile</d:Scopes></d:Probe>")))
        #expect(Self.device.matches(scoped))
        let other = try #require(
            WSDiscoveryRequest(datagram: Self.probe("<d:Probe><d:Scopes>onvif://www.onvif.org/Profile/G</d:Scopes></d:Probe>")))
        #expect(!Self.device.matches(other))
        let exact = "http://schemas.xmlsoap.org/ws/2005/04/discovery/strcmp0"
        let strcmp = try #require(
            WSDiscoveryRequest(
                datagram: Self.probe("<d:Probe><d:Scopes MatchBy=\"\(exact)\">onvif://www.onvif.org/name/OnAir</d:Scopes></d:Probe>")))
        #expect(Self.device.matches(strcmp))
        let unknownRule = try #require(
            WSDiscoveryRequest(datagram: Self.probe("<d:Probe><d:Scopes MatchBy=\"urn:x\">onvif://www.onvif.org/name</d:Scopes></d:Probe>"))
        )
        #expect(!Self.device.matches(unknownRule))
        #expect(!WSDiscoveryDevice.scope("onvif://www.onvif.org/name/OnAirX", matches: "onvif://www.onvif.org/name/OnAir", by: nil))
    }

    @Test func resolveNamesOurEndpointOnly() throws {
        let ours = try #require(
            WSDiscoveryRequest(
                datagram: Self.probe(
                    "<d:Resolve><a:EndpointReference><a:Address>\(Self.device.endpoint)</a:Address></a:EndpointReference></d:Resolve>",
                    action: "Resolve")))
        #expect(Self.device.matches(ours))
        let theirs = try #require(
            WSDiscoveryRequest(
                datagram: Self.probe(
                    "<d:Resolve><a:EndpointReference><a:Address>urn:uuid:other</a:Address></a:EndpointReference></d:Resolve>",
                    action: "Resolve")))
        #expect(!Self.device.matches(theirs))
    }

    @Test func whatIsNotAWellFormedRequestIsDropped() {
        #expect(WSDiscoveryRequest(datagram: Self.probe("<d:Probe/>", messageID: nil)) == nil)
        #expect(WSDiscoveryRequest(datagram: Self.probe("<d:Hello/>", action: "Hello")) == nil)
        #expect(WSDiscoveryRequest(datagram: Self.probe("<d:ProbeMatches/>")) == nil)
        #expect(WSDiscoveryRequest(datagram: Self.probe("<Probe/>")) == nil)  // not in WS-Discovery's namespace
        #expect(WSDiscoveryRequest(datagram: Self.probe("<d:Resolve/>", action: "Resolve")) == nil)
        #expect(WSDiscoveryRequest(datagram: Array("GET / HTTP/1.1\r\n\r\n".utf8)) == nil)
        let padded = Self.probe("<d:Probe><d:Scopes>\(String(repeating: "x", count: 9000))</d:Scopes></d:Probe>")
        #expect(WSDiscoveryRequest(datagram: padded) == nil)
        let many = Self.probe("<d:Probe><d:Types>\(Array(repeating: "dn:Device", count: 20).joined(separator: " "))</d:Types></d:Probe>")
        #expect(WSDiscoveryRequest(datagram: many) == nil)
    }

    @Test func theAnswerReadsBackWithItsFields() throws {
        let request = try #require(WSDiscoveryRequest(datagram: Self.probe("<d:Probe/>")))
        let text = Self.device.answer(
            to: request, xaddrs: ["http://192.0.2.1:8080/onvif/device_service"], messageID: "urn:uuid:answer", number: 3)
        let envelope = try SOAPEnvelope(Array(text.utf8))
        #expect(envelope.header?.childValue("RelatesTo") == "uuid:1234")
        #expect(envelope.header?.childValue("Action") == "\(WSDiscoveryRequest.discovery)/ProbeMatches")
        #expect(envelope.header?.child("AppSequence")?.attribute("InstanceId") == "7")
        let match = try #require(envelope.operation.child("ProbeMatch"))
        #expect(match.child("EndpointReference")?.childValue("Address") == Self.device.endpoint)
        #expect(match.childValue("Types") == "dn:NetworkVideoTransmitter tds:Device")
        #expect(match.childValue("XAddrs") == "http://192.0.2.1:8080/onvif/device_service")
        #expect(match.childValue("Scopes")?.split(separator: " ").count == 3)
        let hello = try SOAPEnvelope(Array(Self.device.announcement(hello: ["http://x"], messageID: "urn:uuid:h", number: 1).utf8))
        #expect(hello.operation.name == "Hello" && hello.operation.childValue("XAddrs") == "http://x")
        let bye = try SOAPEnvelope(Array(Self.device.announcement(hello: nil, messageID: "urn:uuid:b", number: 2).utf8))
        #expect(bye.operation.name == "Bye" && bye.operation.child("EndpointReference")?.childValue("Address") == Self.device.endpoint)
    }

    @Test func answersAreRateLimitedPerSourceAndOverall() {
        var limit = WSDiscoveryRateLimit(overall: 10, perSource: 2, maximumSources: 4)
        // A burst of 4 from one source, then 2 a second.
        var burst = 0
        for _ in 0..<10 where limit.admit("192.0.2.9", now: 0) { burst += 1 }
        #expect(burst == 4)
        let early = limit.admit("192.0.2.9", now: 0.1), later = limit.admit("192.0.2.9", now: 0.6)
        #expect(!early && later)
        // Overall: a burst of 20 across sources, then 10 a second.
        var overall = WSDiscoveryRateLimit(overall: 10, perSource: 100, maximumSources: 1000)
        var admitted = 0
        for index in 0..<100 where overall.admit("192.0.2.\(index)", now: 0) { admitted += 1 }
        #expect(admitted == 20)
        admitted = 0
        for index in 0..<100 where overall.admit("198.51.100.\(index)", now: 1) { admitted += 1 }
        #expect(admitted == 10)
        // The sources remembered stay bounded.
        for index in 0..<100 { _ = limit.admit("203.0.113.\(index)", now: 10 + Double(index)) }
        let again = limit.admit("192.0.2.9", now: 200)
        #expect(again)
    }

    /// A random source the test sets: each draw is the next of `values`.
    struct Draws: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
    }

    @Test func answersWaitARandomTimeUpToAppMaxDelay() throws {
        #expect(WSDiscoveryDelays<String>.maximumDelay == 0.5)
        var delays = WSDiscoveryDelays<String>()
        var random = Draws(values: [.max, 0, .max / 2])
        for item in ["late", "at once", "midway"] { #expect(delays.hold(item, now: 10, using: &random)) }
        #expect(delays.due(now: 10) == ["at once"])
        let next = try #require(delays.next)
        #expect(next > 10.24 && next < 10.26)
        #expect(delays.due(now: 10.26) == ["midway"])
        #expect(delays.due(now: 10.49).isEmpty && delays.count == 1)
        #expect(delays.due(now: 10.5) == ["late"] && delays.next == nil)
        // Bounded: beyond `maximumHeld` an answer is dropped.
        delays.maximumHeld = 2
        #expect(delays.hold("a", now: 0, using: &random) && delays.hold("b", now: 0, using: &random))
        #expect(!delays.hold("c", now: 0, using: &random))
        // The system's random source: every wait within [0, 0.5 s).
        var spread = WSDiscoveryDelays<Int>()
        spread.maximumHeld = 1000
        var system = SystemRandomNumberGenerator()
        for index in 0..<200 { _ = spread.hold(index, now: 0, using: &system) }
        #expect((spread.next ?? -1) >= 0 && spread.due(now: 0.499_999_999).count + spread.due(now: 0.5).count == 200)
    }
}
#endif
