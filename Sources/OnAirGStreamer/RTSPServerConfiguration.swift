#if os(Linux)
/// What an `RTSPServer` listens on, what it serves and whom it admits.
public struct RTSPServerConfiguration: Sendable {
    /// The address listened on ("127.0.0.1", "::1", "0.0.0.0").
    public var host = "127.0.0.1"
    /// The TCP port (0: the system picks one).
    public var port = 8554
    /// The path served, e.g. "/live".
    public var path = "/live"
    /// Further paths served beside `path` (a sub stream's "/sub"), each a mount of its own with the
    /// same `launch` unless `pathLaunches` names another; `RTSPClientMedia.path` tells a client's
    /// media which. No spaces.
    public var otherPaths: [String] = []
    /// The per-client pipeline in gst-launch syntax: `appsrc name=video` / `appsrc name=audio`
    /// feeding payloaders `pay0`, `pay1`, all inside `( … )`.
    public var launch: String
    /// The pipeline of a path that differs from `launch` (a sub stream in another codec), by path. No line breaks.
    public var pathLaunches: [String: String] = [:]

    /// The launch of every served path (`path`, then `otherPaths`), one a line, as the shim takes them.
    var launchLines: String {
        ([path] + otherPaths).map { pathLaunches[$0] ?? launch }.joined(separator: "\n")
    }
    /// User name and password every request needs (nil: open, unless `access` is set).
    public var credentials: (user: String, password: String)?
    /// The keyring's user when `credentials` is nil but `access` is set.
    public static let defaultUser = "onair"
    /// Whether Basic authentication is accepted besides Digest (only where the password cannot leak).
    public var allowBasic = false
    /// With `allowBasic`: refusals offer Basic only, not Digest (Digest answers are still checked).
    /// For a server whose `access` users log in with Basic: a client offered both picks Digest.
    public var basicOnly = false
    /// Judges what `credentials` do not cover (other users' Basic credentials) and hears of failed
    /// logins; with it, requests need credentials even when `credentials` is nil.
    public var access: RTSPAccessHooks?
    /// RTSPS: the certificate (chain) and its private key, PEM, one after the other; nil: plain
    /// RTSP. With it the media travel inside the TLS connection only (RTP interleaved over TCP).
    public var tlsPEM: String?
    /// Seconds a session lives without a request or RTCP from its client; a connection without a
    /// session that asks nothing for as long is closed too.
    public var sessionTimeout = 60
    /// Connections open at once, whether they play or not; more are closed as they arrive.
    public var connectionLimit = 128
    /// Seconds a client has for each request, from its first byte to its last (a request sent a
    /// byte at a time is cut after this). A request still arriving past four times `headerLimit`
    /// plus `contentLengthLimit` is cut too, unanswered: gst-rtsp-server would keep every header
    /// line until the end of the request.
    public var requestTimeout = 5.0
    /// The largest request body accepted (larger: 413).
    public var contentLengthLimit = 16 * 1024
    /// The largest request line and headers accepted, together (larger: 413); any one line
    /// longer than 4000 bytes is refused with 413 too (GStreamer would cut it at 4 KiB).
    public var headerLimit = 16 * 1024

    /// A configuration serving `launch`.
    public init(launch: String) {
        self.launch = launch
    }
}

/// What an RTSP server asks its owner about credentials its keyring does not judge.
public struct RTSPAccessHooks: Sendable {
    /// Basic credentials (the whole Authorization value) for a user other than the keyring's, from
    /// the numeric address `peer`: the key number (> 0) to admit the request with, or nil. Asked only
    /// where Basic is allowed; the owner counts and logs its own failures.
    public var checkBasic: @Sendable (_ authorization: String, _ peer: String) -> Int?
    /// Credentials meant for the keyring were wrong (`scheme`: `digest` or `basic`), from `peer`.
    public var failed: @Sendable (_ peer: String, _ scheme: String) -> Void

    /// Hooks calling these closures.
    public init(
        checkBasic: @escaping @Sendable (_ authorization: String, _ peer: String) -> Int?,
        failed: @escaping @Sendable (_ peer: String, _ scheme: String) -> Void
    ) {
        self.checkBasic = checkBasic
        self.failed = failed
    }
}
#endif
