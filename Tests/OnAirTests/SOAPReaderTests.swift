#if os(Linux)
import Foundation
import OnAirCore
import OnAirServing
import Testing

/// `SOAPReader` and `SOAPEnvelope` on the requests ONVIF clients send and on every way a document
/// can be refused: each limit, malformed XML, undeclared prefixes, a DOCTYPE, and truncations of
/// a real request at every byte (refused with an error, never a trap).
@Suite struct SOAPReaderTests {
    static let getStreamURI = """
        <?xml version="1.0" encoding="utf-8"?>
        <soap-env:Envelope xmlns:soap-env="http://www.w3.org/2003/05/soap-envelope">
          <soap-env:Header><!-- a comment -->
            <wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd">
              <wsse:UsernameToken>
                <wsse:Username>onair</wsse:Username>
                <wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">DIGEST</wsse:Password>
                <wsse:Nonce>bm9uY2Utbm9uY2U=</wsse:Nonce>
                <wsu:Created xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">2026-12-04T18:00:00+00:00</wsu:Created>
              </wsse:UsernameToken>
            </wsse:Security>
          </soap-env:Header>
          <soap-env:Body>
            <ns0:GetStreamUri xmlns:ns0="http://www.onvif.org/ver10/media/wsdl">
              <ns0:StreamSetup><ns1:Stream xmlns:ns1="http://www.onvif.org/ver10/schema">RTP-Unicast</ns1:Stream></ns0:StreamSetup>
              <ns0:ProfileToken>main &amp; &#x73;ub &lt;<![CDATA[<raw>]]></ns0:ProfileToken>
            </ns0:GetStreamUri>
          </soap-env:Body>
        </soap-env:Envelope>
        """

    @Test func readsAnONVIFRequest() throws {
        let envelope = try SOAPEnvelope(Array(Self.getStreamURI.utf8))
        #expect(envelope.namespace == SOAPEnvelope.soap12)
        #expect(envelope.operation.name == "GetStreamUri")
        #expect(envelope.operation.namespace == "http://www.onvif.org/ver10/media/wsdl")
        #expect(envelope.operation.childValue("ProfileToken") == "main & sub <<raw>")
        let stream = envelope.operation.child("StreamSetup")?.child("Stream")
        #expect(stream?.namespace == "http://www.onvif.org/ver10/schema")
        #expect(stream?.value == "RTP-Unicast")
        let token = try #require(WSUsernameToken(header: envelope.header))
        #expect(token.username == "onair")
        #expect(token.isDigest)
        #expect(token.nonce == Array("nonce-nonce".utf8))
        #expect(token.created == "2026-12-04T18:00:00+00:00")
    }

    @Test func defaultNamespacesAndAttributes() throws {
        let root = try SOAPReader().read(Array(#"<a xmlns="urn:x" xmlns:p="urn:p" p:k='v&quot;' k="w"><b/><p:c>t</p:c></a>"#.utf8))
        #expect(root.namespace == "urn:x")
        #expect(root.attributes == [.init(namespace: "urn:p", name: "k", value: "v\""), .init(namespace: "", name: "k", value: "w")])
        #expect(root.children.map(\.namespace) == ["urn:x", "urn:p"])
        #expect(root.child("c")?.text == "t")
    }

    @Test(arguments: [
        ("<a><b></a></b>", "mismatched"), ("<a>", "unclosed"), ("<a></a><b/>", "second root"), ("text", "text"),
        ("<a x=1/>", "unquoted"), ("<a x='1' x='2'/>", "twice"), ("<a>&bogus;</a>", "entity"), ("<a>&#0;</a>", "nul"),
        ("<a>&#xD800;</a>", "surrogate"), ("<1a/>", "digit"), ("<a:/>", "empty local"), ("<a><!-- x</a>", "comment"),
        ("", "empty"), ("<a x='<'/>", "lt in value"), ("<a></a>junk", "trailing"), ("<a>&#+5;</a>", "signed"),
    ])
    func refusesMalformedXML(text: String, _: String) {
        #expect(throws: SOAPReadError.self) { try SOAPReader().read(Array(text.utf8)) }
    }

    @Test func refusesPastEachLimit() {
        var limits = SOAPReader.Limits()
        limits.maximumDepth = 3
        limits.maximumElements = 4
        limits.maximumAttributes = 2
        limits.maximumNameBytes = 8
        limits.maximumBytes = 100
        let reader = SOAPReader(limits: limits)
        #expect(throws: SOAPReadError.tooDeep(limit: 3)) { try reader.read(Array("<a><b><c><d/></c></b></a>".utf8)) }
        #expect(throws: SOAPReadError.tooManyElements(limit: 4)) { try reader.read(Array("<a><b/><b/><b/><b/></a>".utf8)) }
        #expect(throws: SOAPReadError.tooManyAttributes(limit: 2)) { try reader.read(Array("<a x='1' y='2' z='3'/>".utf8)) }
        #expect(throws: SOAPReadError.nameTooLong(limit: 8)) { try reader.read(Array("<abcdefghij/>".utf8)) }
        #expect(throws: SOAPReadError.tooLarge(limit: 100)) { try reader.read(Array(repeating: UInt8(ascii: " "), count: 101)) }
        #expect(throws: SOAPReadError.unboundPrefix("q")) { try reader.read(Array("<q:a/>".utf8)) }
        #expect(throws: SOAPReadError.doctype) { try reader.read(Array("<!DOCTYPE a [<!ENTITY x 'y'>]><a/>".utf8)) }
        // The default limits stop a deep nesting long before the stack could matter.
        let deep = String(repeating: "<a>", count: 2_000) + String(repeating: "</a>", count: 2_000)
        #expect(throws: SOAPReadError.tooDeep(limit: 32)) { try SOAPReader().read(Array(deep.utf8)) }
    }

    @Test func refusesWhatIsNotAnEnvelope() {
        #expect(throws: SOAPReadError.notAnEnvelope("the root is not a SOAP Envelope")) { try SOAPEnvelope(Array("<a/>".utf8)) }
        let empty = "<s:Envelope xmlns:s=\"\(SOAPEnvelope.soap12)\"><s:Body/></s:Envelope>"
        #expect(throws: SOAPReadError.notAnEnvelope("an empty Body")) { try SOAPEnvelope(Array(empty.utf8)) }
    }

    @Test func everyTruncationIsAnErrorOrAnElement() {
        let bytes = Array(Self.getStreamURI.utf8)
        var refused = 0
        for end in 0..<bytes.count {
            do { _ = try SOAPEnvelope(bytes[0..<end]) } catch { refused += 1 }
        }
        #expect(refused == bytes.count)
    }

    /// FIPS 180's examples, and a length at the padding's block boundary.
    @Test func sha1() {
        let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(SHA1.digest([UInt8]())) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }
}
#endif
