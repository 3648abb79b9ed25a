#if os(Linux)
import Testing

@testable import OnAirHTTP

/// `HTTPResponseHead`, the response-head parser of OnAir's HTTP client (the WHIP output).
struct HTTPResponseHeadTests {
    @Test func responseHeadsAreReadWhenCompleteAndRefusedWhenMalformed() throws {
        let text = "HTTP/1.1 201 Created\r\nContent-Type: application/sdp\r\nLocation: /whip/s/1\r\nContent-Length: 5\r\n\r\nv=0\r\n"
        let head = try #require(try HTTPResponseHead.parse(Array(text.utf8)))
        #expect(head.status == 201 && head.reason == "Created")
        #expect(head.value("location") == "/whip/s/1" && head.value("LOCATION") == "/whip/s/1")
        #expect(try head.contentLength() == 5)
        #expect(Array(text.utf8)[head.bodyOffset...].count == 5)
        // Not complete yet: no blank line.
        #expect(try HTTPResponseHead.parse(Array("HTTP/1.1 201 Created\r\nLocation: /x\r\n".utf8)) == nil)
        for bad in ["HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "ICY 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\n: x\r\n\r\n", "\r\n\r\n"] {
            #expect(throws: HTTPResponseError.self, "\(bad.debugDescription)") { try HTTPResponseHead.parse(Array(bad.utf8)) }
        }
        let badLength = try #require(try HTTPResponseHead.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n".utf8)))
        #expect(throws: HTTPResponseError.self) { try badLength.contentLength() }
        // A head that never ends is cut at the bound.
        let endless = Array("HTTP/1.1 200 OK\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: HTTPResponseHead.maximumBytes + 1)
        #expect(throws: HTTPResponseError.self) { try HTTPResponseHead.parse(endless) }
    }
}
#endif
