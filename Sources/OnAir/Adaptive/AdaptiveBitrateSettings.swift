/// How adaptive bitrate follows the network: the bounds of the video bitrate and the thresholds
/// that decide when to step down (the link falls behind) and up (it keeps up).
public struct AdaptiveBitrateSettings: Sendable, Codable, Equatable {
    /// The lowest video bitrate the controller sets, in bits per second.
    public var minimumBitRate: Int
    /// The highest video bitrate the controller sets, in bits per second.
    public var maximumBitRate: Int
    /// The video bitrate at the start, in bits per second (clamped to the bounds).
    public var initialBitRate: Int
    /// The audio bitrate sharing the link, subtracted from the measured throughput.
    public var audioBitRate: Int
    /// Queued time (seconds to send the queue at the measured throughput) above which a link
    /// that is not draining counts as congested.
    public var queueThreshold = 0.5
    /// Queued time (seconds) at or below which the queue counts as empty.
    public var emptyQueue = 0.1
    /// Seconds of measurements the throughput is computed over.
    public var throughputWindow = 1.0
    /// The share of the measured throughput the video and audio may use after a step down.
    public var headroom = 0.8
    /// Seconds in which a step down plans to send what is already queued.
    public var drainTime = 5.0
    /// The least time in seconds between two step downs (the previous one must take effect).
    public var stepDownInterval = 1.0
    /// Seconds the queue must stay empty (and since the last change) before the first step up
    /// after congestion.
    public var stepUpInterval = 3.0
    /// The same for each further step up in a row (the link has kept up with the previous one).
    public var followingStepUpInterval = 2.0
    /// The fraction the first step up adds, e.g. 0.15 for +15 %. Each further step up in a row
    /// adds this much more (+30 %, +45 %, …, at most `maximumStepUpFraction`), so a link that has
    /// recovered gets back to full rate in a few steps, except near what the link carried when it
    /// last fell behind, which is approached in first-size steps again.
    public var stepUpFraction = 0.15
    /// The largest fraction a step up adds.
    public var maximumStepUpFraction = 0.5

    /// Creates settings for a stream starting at `initialBitRate` between `minimumBitRate` and
    /// `maximumBitRate` (swapped if given the wrong way round), with `audioBitRate` alongside.
    public init(minimumBitRate: Int, maximumBitRate: Int, initialBitRate: Int, audioBitRate: Int = 0) {
        self.minimumBitRate = max(1, min(minimumBitRate, maximumBitRate))
        self.maximumBitRate = max(minimumBitRate, maximumBitRate)
        self.initialBitRate = initialBitRate
        self.audioBitRate = max(0, audioBitRate)
    }
}
