#if os(Linux)
import OnAirServing
import Testing

/// Where `--redirect-listen` sends a plain-HTTP request.
@Suite struct ServeRedirectTests {
    @Test func theLocationKeepsTheAskedHostAndPathOnTheHTTPSPort() {
        #expect(
            ServeRedirect.location(path: "/live.ts", hostHeader: "camera.local:8081", host: "0.0.0.0", httpsPort: 8443)
                == "https://camera.local:8443/live.ts")
        #expect(
            ServeRedirect.location(path: "/", hostHeader: "[::1]:8081", host: "::", httpsPort: 8443) == "https://[::1]:8443/")
        // No Host header, or one that is not a plain name or address: the listen host.
        #expect(ServeRedirect.location(path: "/live.m3u8", hostHeader: nil, host: "::1", httpsPort: 443) == "https://[::1]:443/live.m3u8")
        #expect(
            ServeRedirect.location(path: "/a", hostHeader: "evil\r\nSet-Cookie: x", host: "10.0.0.2", httpsPort: 8443)
                == "https://10.0.0.2:8443/a")
        #expect(
            ServeRedirect.location(path: "/a", hostHeader: "x/y@z", host: "10.0.0.2", httpsPort: 8443) == "https://10.0.0.2:8443/a")
        // A decoded path is escaped again.
        #expect(
            ServeRedirect.location(path: "/rec ordings/a b.mp4", hostHeader: "h", host: "h", httpsPort: 1)
                == "https://h:1/rec%20ordings/a%20b.mp4")
    }
}
#endif
