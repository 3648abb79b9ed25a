import OnAirServeConfig

/// What `onair serve` listens on and the limits it keeps.
public struct ServeConfiguration: Sendable {
    /// The HTTP address (`127.0.0.1` unless said otherwise) and port.
    public var host = "127.0.0.1"
    /// The HTTP port (0: the system picks one).
    public var port = 8080
    /// When set, every HTTP request needs `?token=` with this value (401 without, 403 wrong).
    public var token: String?
    /// Per-viewer limits and the most viewers served at once.
    public var limits = ServeHub.Limits()
    /// Connections from one address at once (0: no limit besides the total).
    public var perAddressLimit = 0
    /// The SRT port for callers (nil: no SRT listener); callers need `token` as passphrase when set.
    public var srtPort: Int?
    /// The RTSP port (`rtsp://host:port/live`; nil: no RTSP face, 0: the system picks one). With
    /// `token`, RTSP clients need user `onair` and the token as password (Digest; Basic on loopback only).
    public var rtspPort: Int?
    /// The WebRTC face (WHEP viewers at `/whep`; nil: none). With `token`, WHEP requests need it as Bearer token.
    public var webRTC: WebRTCConfiguration?
    /// Who may read `/metrics` without the token (loopback unless `metrics-addresses` says otherwise).
    public var metricsAddresses = ServeAddressRange.loopback
    /// Who may read `/healthz` and `/readyz` without the token (loopback unless `health-addresses` says otherwise).
    public var healthAddresses = ServeAddressRange.loopback
    /// Creates the defaults.
    public init() {}
}
