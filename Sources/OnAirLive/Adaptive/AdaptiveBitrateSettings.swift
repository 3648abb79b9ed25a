import OnAirCore

/// How adaptive bitrate follows the network: the bounds of the video bitrate and the thresholds
/// that decide when to step down (queueing delay grows) and up (the queue stays empty).
package struct AdaptiveBitrateSettings: Sendable, Codable, Equatable {
    /// The lowest video bitrate the controller sets, in bits per second.
    public var minimumBitRate: Int
    /// The highest video bitrate the controller sets, in bits per second.
    public var maximumBitRate: Int
    /// The video bitrate at the start, in bits per second (clamped to the bounds).
    public var initialBitRate: Int
    /// The audio bitrate sharing the link, subtracted from the link estimate.
    public var audioBitRate: Int
    /// Queueing delay (seconds) above which a link that is not draining counts as congested.
    public var queueThreshold = 0.5
    /// Queueing delay (seconds) that, standing through a whole `throughputWindow` (its least
    /// reading there) and not draining, counts as congestion: a link used so fully that a queue
    /// never clears (or whose bottleneck drops what exceeds its buffer, capping the delay seen).
    public var standingQueue = 0.25
    /// Queueing delay (seconds) above which a delay growing faster than `growthThreshold` at two
    /// readings in a row counts as congestion: the early signal, before much has queued (a single
    /// keyframe's burst raises one reading and then drains).
    public var earlyQueueThreshold = 0.15
    /// Growth of the queueing delay (seconds per second) that is congestion above `earlyQueueThreshold`.
    public var growthThreshold = 0.25
    /// Queueing delay (seconds) at or below which the queue counts as empty.
    public var emptyQueue = 0.1
    /// Seconds of readings the delivery rate is computed over.
    public var throughputWindow = 1.0
    /// The share of the link estimate the video and audio use: the encoder is set to this fraction
    /// of what the link delivers, less the audio.
    public var headroom = 0.85
    /// Seconds in which a step down plans to send what is already queued.
    public var drainTime = 4.0
    /// Queueing delay (seconds) above which a step down also cuts the link's backlog (skips to a
    /// fresh keyframe): a link that collapsed under the stream would otherwise keep the viewer
    /// that far behind while the lower rate drains it. Nil: never (only `maximumNetworkBacklog` cuts).
    public var cutBacklogDelay: Double? = 1.0
    /// The least time in seconds between two backlog cuts: room for the fresh keyframe a cut
    /// starts with to drain, short enough that an encoder still catching up with a step down
    /// (x264 takes about a second to reach a much lower rate) cannot pile up another second.
    public var minimumCutInterval = 2.0
    /// The least time in seconds between two step downs (the previous one must take effect).
    public var stepDownInterval = 1.0
    /// Seconds the queue must stay empty (and since the last change) before the first step up
    /// after congestion.
    public var stepUpInterval = 1.0
    /// The same for each further step up in a row (the link has kept up with the previous one).
    public var followingStepUpInterval = 0.5
    /// The fraction the first probe above the link estimate adds, e.g. 0.15 for +15 %. Each further
    /// step up in a row doubles it (+30 %, +60 %, …, at most `maximumStepUpFraction`), so a link
    /// that came back is found again in a few steps.
    public var stepUpFraction = 0.15
    /// The largest fraction a step up adds.
    public var maximumStepUpFraction = 1.0
    /// While adapting, the encoder's data-rate limits allow at most this many times the bitrate
    /// over each limit's window: an encoder making up for bits it saved (x264 after a step up)
    /// or unable to reach a low target then stays within the room `headroom` leaves on the link.
    public var peakRatio = 1.15

    /// `limits` (the configured ones scaled to `bitRate`) tightened to `peakRatio` × `bitRate`.
    public func dataRateLimits(_ limits: [VideoEncoderSettings.DataRateLimit], bitRate: Int) -> [VideoEncoderSettings.DataRateLimit] {
        limits.map { limit in
            guard limit.seconds.isFinite, limit.seconds > 0 else { return limit }
            let most = Int((peakRatio * Double(bitRate) * limit.seconds / 8).rounded())
            return DataRateLimit(bytes: max(1, min(limit.bytes, most)), seconds: limit.seconds)
        }
    }

    /// Creates settings for a stream starting at `initialBitRate` between `minimumBitRate` and
    /// `maximumBitRate` (swapped if given the wrong way round), with `audioBitRate` alongside.
    public init(minimumBitRate: Int, maximumBitRate: Int, initialBitRate: Int, audioBitRate: Int = 0) {
        self.minimumBitRate = max(1, min(minimumBitRate, maximumBitRate))
        self.maximumBitRate = max(minimumBitRate, maximumBitRate)
        self.initialBitRate = initialBitRate
        self.audioBitRate = max(0, audioBitRate)
    }
}
