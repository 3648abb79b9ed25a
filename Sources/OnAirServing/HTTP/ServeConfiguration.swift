#if os(Linux)
import OnAirServeConfig

/// What `onair serve` listens on and the limits it keeps.
public struct ServeConfiguration: Sendable {
    /// The HTTP address (`127.0.0.1` unless said otherwise) and port.
    public var host = "127.0.0.1"
    /// The HTTP port (0: the system picks one).
    public var port = 8080
    /// Each opens every HTTP face with every permission: as `Authorization: Bearer`, or as
    /// `?token=` on the paths whose clients cannot send a header (`ServeServer.takesQueryToken`);
    /// 401 without or wrong. A list so a reload can rotate them (`ServeOutputs.setTokens`). Any is
    /// the RTSP password (user `onair`); the last (the newest) is the SRT passphrase.
    public var tokens: [String] = []
    /// The first token (what the served URLs print, as `?token=…`), nil without tokens.
    public var token: String? { tokens.first }
    /// Per-viewer limits and the most viewers served at once.
    public var limits = Limits()
    /// Connections from one address at once (0: no limit besides the total).
    public var perAddressLimit = 0
    /// The SRT port for callers (nil: no SRT listener); callers need the last token as passphrase when set.
    public var srtPort: Int?
    /// The RTSP port (`rtsp://host:port/live`; nil: no RTSP face, 0: the system picks one). With
    /// `tokens`, RTSP clients need user `onair` and a token as password (Digest; Basic on loopback only).
    public var rtspPort: Int?
    /// The RTSPS port (`rtsps://host:port/live`; nil: none, 0: the system picks one). Needs `tls`
    /// (the same certificate as HTTPS); the media travel inside the TLS connection.
    public var rtspsPort: Int?
    /// Where plain RTSP (`rtspPort`) listens when TLS is on: `.loopback` (the default), `.on` (the
    /// listen address) or `.off`. Without TLS it listens on the listen address.
    public var rtspPlain = RTSPPlain.loopback
    /// The WebRTC face (WHEP viewers at `/whep`; nil: none). With `tokens`, WHEP requests need one as Bearer token.
    public var webRTC: WebRTCConfiguration?
    /// The session's media time line start (`SessionSettings.timelineStart`, seconds): non-zero,
    /// the RTSP face's video RTP timestamps start at it (90 kHz, modulo 2^32) instead of
    /// GStreamer's random base, so `--timeline-start` puts RTP's wrap where it is asked too.
    package var timelineStart = 0.0
    /// HTTPS for every HTTP face (page, streams, HLS, statistics, WHEP), nil: plain HTTP. With it the
    /// HTTP port speaks TLS only.
    public var tls: ServeTLS?
    /// With `tls`: a plain-HTTP listener (`ADDR:PORT`) that answers every request with a redirect
    /// to the same path over HTTPS (never media, never a credential check); nil: none.
    public var redirectListen: String?
    /// Users of the HTTP faces (Basic), besides the token (see `ServeAccessPolicy`).
    public var users: [ServeUser] = []
    /// Addresses that need no credentials for a permission (e.g. `.metrics: ServeAddressRange.loopback`).
    public var openAddresses: [ServePermission: [ServeAddressRange]] = [:]
    /// Who may read `/metrics` without the token (loopback unless `metrics-addresses` says otherwise).
    public var metricsAddresses = ServeAddressRange.loopback
    /// Who may read `/healthz` and `/readyz` without the token (loopback unless `health-addresses` says otherwise).
    public var healthAddresses = ServeAddressRange.loopback
    /// The ONVIF services under `/onvif/` (`--onvif`; nil: none).
    public var onvif: ONVIFConfiguration?
    /// Creates the defaults.
    public init() {}
}

extension ServeConfiguration {
    /// Whether an RTSP face is asked for (plain RTSP or RTSPS).
    public var servesRTSP: Bool { rtspPort != nil || rtspsPort != nil }

    /// Where plain RTSP listens beside RTSPS (`ServeConfiguration.rtspPlain`).
    public enum RTSPPlain: String, Sendable, CaseIterable {
        /// On the listen address, beside RTSPS.
        case on
        /// On loopback only (the listen address when it is loopback, else 127.0.0.1 or ::1).
        case loopback
        /// Not at all: RTSPS only.
        case off
    }
}

extension ServeConfiguration {
    /// The limits each viewer gets.
    public struct Limits: Sendable {
        /// Viewers served at once, all transports together.
        public var maxViewers = 32
        /// How long a viewer may stay behind before it is cut.
        public var viewerTimeout: Duration = .seconds(5)
        /// The most bytes waiting for one viewer before it skips to the next keyframe.
        public var viewerQueueBytes = 1024 * 1024
        /// The default limits.
        public init() {}
    }
}
#endif
