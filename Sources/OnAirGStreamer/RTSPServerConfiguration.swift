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
    /// User name and password every request needs (nil: open, unless `access` is set).
    package var credentials: (user: String, password: String)?
    /// The keyring's user when `credentials` is nil but `access` is set.
    package static let defaultUser = "onair"
    /// Whether Basic authentication is accepted besides Digest (only where the password cannot leak).
    package var allowBasic = false
    /// With `allowBasic`: refusals offer Basic only, not Digest (Digest answers are still checked).
    /// For a server whose `access` users log in with Basic: a client offered both picks Digest.
    package var basicOnly = false
    /// Judges what `credentials` do not cover (other users' Basic credentials) and hears of failed
    /// logins; with it, requests need credentials even when `credentials` is nil.
    package var access: RTSPAccessHooks?
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

/// What an RTSP server asks its owner about credentials its keyring does not judge.
package struct RTSPAccessHooks: Sendable {
    /// Basic credentials (the whole Authorization value) for a user other than the keyring's, from
    /// the numeric address `peer`: the key number (> 0) to admit the request with, or nil. Asked only
    /// where Basic is allowed; the owner counts and logs its own failures.
    package var checkBasic: @Sendable (_ authorization: String, _ peer: String) -> Int?
    /// Credentials meant for the keyring were wrong (`scheme`: `digest` or `basic`), from `peer`.
    package var failed: @Sendable (_ peer: String, _ scheme: String) -> Void

    /// Hooks calling these closures.
    package init(
        checkBasic: @escaping @Sendable (_ authorization: String, _ peer: String) -> Int?,
        failed: @escaping @Sendable (_ peer: String, _ scheme: String) -> Void
    ) {
        self.checkBasic = checkBasic
        self.failed = failed
    }
}
#endif
