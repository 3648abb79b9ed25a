import OnAirLive
#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// How a session's network outputs behave: reconnecting, adaptive bitrate, the backlog bound, TLS.
public struct StreamingSettings: Sendable {
    #if canImport(OnAirStreaming)
    /// Connect and send timeouts, and the backoff between reconnect attempts.
    public var reconnect = ReconnectPolicy()
    #endif
    /// Adapt the video bitrate to what the links carry (on by default; needs a network output).
    public var adaptiveBitRate = true
    /// The lowest adaptive rate, or nil for a tenth of the highest (at least 100 kb/s).
    public var minimumBitRate: Int?
    /// The highest adaptive rate, or nil for the encoder's `averageBitRate`.
    public var maximumBitRate: Int?
    /// Media that may wait for a network output before it skips to a fresh keyframe; nil never
    /// skips (the delay grows instead). Files are never cut.
    public var maximumBacklog: Duration? = .seconds(2)
    /// Whether `rtmps://` outputs check the server's certificate chain and that it names the URL's
    /// host (default on: a stream key sent to an impostor is a stolen stream).
    public var verifiesTLSCertificate = true
    /// A PEM file of the certificate authorities `rtmps://` outputs trust instead of the system's.
    public var tlsCAFile: String?
    #if canImport(OnAirStreaming)
    /// How `rtmps://` outputs check the server's certificate.
    package var tls: StreamTarget.TLSOptions { StreamTarget.TLSOptions(verify: verifiesTLSCertificate, caFile: tlsCAFile) }
    #endif
    /// The Bearer token sent to `whip+http://` endpoints (`Authorization: Bearer …`), or nil for none.
    public var bearerToken: String?

    /// The defaults: adaptive, reconnecting, at most 2 s behind.
    public init() {}

    /// The adaptive-bitrate bounds for `video`: up to `maximumBitRate` (default the encoder's
    /// rate), down to `minimumBitRate` (default a tenth of the maximum, at least 100 kb/s).
    package func adaptiveSettings(video: VideoEncoderSettings, audio: AudioEncoderSettings?) -> AdaptiveBitrateSettings {
        let maximum = maximumBitRate ?? max(video.averageBitRate, minimumBitRate ?? 0)
        let minimum = minimumBitRate ?? min(maximum, max(100_000, maximum / 10))
        return AdaptiveBitrateSettings(
            minimumBitRate: minimum, maximumBitRate: maximum,
            initialBitRate: video.averageBitRate, audioBitRate: audio?.bitRate ?? 0)
    }

    /// Checks the bounds; throws `SettingsError` naming the field.
    public func validate() throws(SettingsError) {
        for (field, rate) in [("minimumBitRate", minimumBitRate), ("maximumBitRate", maximumBitRate)] {
            if let rate, rate <= 0 { throw SettingsError(field: field, value: "\(rate)", allowed: "a positive bitrate") }
        }
        if let minimumBitRate, let maximumBitRate, minimumBitRate > maximumBitRate {
            throw SettingsError(field: "minimumBitRate", value: "\(minimumBitRate)", allowed: "at most maximumBitRate (\(maximumBitRate))")
        }
        if let maximumBacklog, maximumBacklog <= .zero {
            throw SettingsError(field: "maximumBacklog", value: "\(maximumBacklog)", allowed: "positive, or nil")
        }
    }
}
