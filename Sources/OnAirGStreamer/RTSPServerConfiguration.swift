#if os(Linux)
/// What an `RTSPServer` listens on, what it serves and whom it admits.
package struct RTSPServerConfiguration: Sendable {
    /// The address listened on ("127.0.0.1", "::1", "0.0.0.0").
    package var host = "127.0.0.1"
    /// The TCP port (0: the system picks one).
    package var port = 8554
    /// The path served, e.g. "/live".
    package var path = "/live"
    /// Further paths served beside `path` (a sub stream's "/sub"), each a mount of its own with the
    /// same `launch` unless `pathLaunches` names another; `RTSPClientMedia.path` tells a client's
    /// media which. No spaces.
    package var otherPaths: [String] = []
    /// The per-client pipeline in gst-launch syntax: `appsrc name=video` / `appsrc name=audio`
    /// feeding payloaders `pay0`, `pay1`, all inside `( … )`.
    package var launch: String
    /// The pipeline of a path that differs from `launch` (a sub stream in another codec), by path. No line breaks.
    package var pathLaunches: [String: String] = [:]

    /// The launch of every served path (`path`, then `otherPaths`), one a line, as the shim takes them.
    var launchLines: String {
        ([path] + otherPaths).map { pathLaunches[$0] ?? launch }.joined(separator: "\n")
    }
    /// Whom the server admits (OnAirServing's `RTSPKeys`: user `onair`'s keys, other users'
    /// Basic credentials); nil: open, no credentials asked.
    package var keys: (any RTSPCredentialPolicy)?
    /// RTSPS: the certificate (chain) and its private key, PEM, one after the other; nil: plain
    /// RTSP. With it the media travel inside the TLS connection only (RTP interleaved over TCP).
    package var tlsPEM: String?
    /// Seconds a session lives without a request or RTCP from its client; a connection without a
    /// session that asks nothing for as long is closed too.
    package var sessionTimeout = 60
    /// Holds the connections to limits gst-rtsp-server does not set (OnAirServing's
    /// `RTSPGuardPolicy`, whose limits come from `connectionLimit`, `requestTimeout`,
    /// `headerLimit`, `contentLengthLimit` and `sessionTimeout`); nil: no connection is cut.
    package var connectionPolicy: (any RTSPConnectionPolicy)?
    /// Connections open at once, whether they play or not; more are closed as they arrive.
    package var connectionLimit = 128
    /// Seconds a client has for each request, from its first byte to its last (a request sent a
    /// byte at a time is cut after this). A request still arriving past four times `headerLimit`
    /// plus `contentLengthLimit` is cut too, unanswered: gst-rtsp-server would keep every header
    /// line until the end of the request.
    package var requestTimeout = 5.0
    /// The largest request body accepted (larger: 413).
    package var contentLengthLimit = 16 * 1024
    /// The largest request line and headers expected, together: `requestRules` refuse more (413);
    /// the guard cuts a request still arriving past four times this plus `contentLengthLimit`.
    package var headerLimit = 16 * 1024
    /// Judges every request before gst-rtsp-server handles it (OnAirServing's `RTSPRequestRules`:
    /// sizes, CSeq, the served paths); nil lets every request through to gst-rtsp-server.
    package var requestRules: (any RTSPRequestPolicy)?

    /// A configuration serving `launch`.
    package init(launch: String) {
        self.launch = launch
    }
}
#endif
