#if os(Linux)
import OnAirHTTP
import Testing

/// Request paths: only plain segments under the root are accepted.
@Suite struct HTTPPathTests {
    @Test func plainPathsSplitIntoSegments() {
        #expect(HTTPPath("/")?.segments == [])
        #expect(HTTPPath("/live.ts")?.segments == ["live.ts"])
        #expect(HTTPPath("/a/b.m3u8")?.segments == ["a", "b.m3u8"])
    }

    @Test func traversalEmptySegmentsAndControlBytesAreRefused() {
        for path in [
            "", "live.ts", "/..", "/../etc/passwd", "/a/../b", "/./a", "//a", "/a/", "/a\\b", "/a\u{0}b",
            "/a\nb", "/" + String(repeating: "a", count: 2000), "/" + String(repeating: "a/", count: 20) + "a",
        ] {
            #expect(HTTPPath(path) == nil, "\(path.prefix(40))")
        }
    }

    @Test func listenAddressesParse() throws {
        #expect(try HTTPListenAddress(parsing: "8080") == HTTPListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try HTTPListenAddress(parsing: "0.0.0.0:9000").port == 9000)
        #expect(try HTTPListenAddress(parsing: "[::1]:9000").isIPv6)
        for bad in ["localhost:80", "1.2.3.4:70000", "1.2.3.4", "[::1]9000", ":80"] {
            #expect(throws: HTTPServerError.self) { try HTTPListenAddress(parsing: bad) }
        }
    }
}
#endif
