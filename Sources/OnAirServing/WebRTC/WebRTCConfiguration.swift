#if os(Linux)
/// How the WebRTC face of `onair serve` (WHEP viewers at `/whep`) is set up.
public struct WebRTCConfiguration: Sendable {
    /// UDP ports viewers' ICE may use (nil: any the system gives).
    public var ports: ClosedRange<Int>?
    /// An address to offer as a further host candidate beside the listening one, for a server
    /// behind NAT whose public address forwards to it (nil: none).
    public var advertisedAddress: String?
    /// "stun://host:port" (nil: none; loopback and LAN viewers need none).
    public var stunServer: String?
    /// "turn(s)://user:password@host:port" (nil: none).
    public var turnServer: String?
    /// Origins whose pages may call the endpoint (CORS); `["*"]`: any (the default: the Bearer token, not a cookie, guards it).
    public var allowedOrigins: [String] = ["*"]
    /// How long a viewer may send no RTCP before it is dropped (RFC 7675's consent expiry is 30 s).
    public var consentTimeout: Duration = .seconds(30)
    /// The shortest time between forced keyframes, however many viewers ask.
    public var keyFrameInterval: Duration = .seconds(1)
    /// Bytes waiting for one viewer before it skips to the next keyframe.
    public var viewerQueueBytes = 2 * 1024 * 1024
    /// Opus bit rate for the WebRTC audio.
    public var opusBitRate = 96_000
    /// The session's media time line start (seconds; set by the serving outputs): non-zero, the
    /// video's RTP timestamps start there too, so a test crosses their wrap a few seconds in.
    package var timelineStart = 0.0

    /// The defaults: any port, no STUN or TURN, any origin.
    public init() {}
}
#endif
