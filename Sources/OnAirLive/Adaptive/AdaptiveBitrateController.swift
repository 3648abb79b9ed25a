import Foundation

/// Decides the video bitrate from what the network outputs deliver: a pure congestion controller
/// fed with `LinkMeasurement`s (no clocks, threads or I/O of its own), so it is tested with
/// synthetic readings.
///
/// Per output it measures the delivery rate over short windows (acknowledged bytes where the
/// transport reports them) and the queueing delay between the encoder and the wire (OnAir's
/// queue, the transport's buffer, the network's queue seen in the round trip). Growing delay is
/// the early signal: above `earlyQueueThreshold` and growing faster than `growthThreshold` at two
/// readings in a row (a keyframe's burst lifts one reading and drains), a delay that stands above
/// `standingQueue` for a whole window or above `queueThreshold` for half of one without draining,
/// packets lost while a queue stands (the bottleneck's buffer overflows), or packets dropped by
/// the transport: the bitrate steps down
/// at once to `headroom` × what the link delivers (a link with a queue delivers its capacity,
/// which becomes the link estimate) minus audio minus what sends the backlog within `drainTime`.
/// While every queue stays empty it probes up: straight back to `headroom` × the estimate if
/// below it, then above it by `stepUpFraction`, doubling with each step in a row up to
/// `maximumStepUpFraction` as long as the link carries all that is sent (the estimate rises with
/// it), up to the configured maximum even where that is above `headroom` × the estimate; above
/// the estimate, a link that carries less than is handed to it holds the probe (an encoder
/// making less than its target does not). The result always lies within the settings' bounds.
package struct AdaptiveBitrateController: Sendable {
    /// The bounds and thresholds.
    public let settings: AdaptiveBitrateSettings
    /// The video bitrate the encoder should use now, in bits per second.
    public private(set) var bitRate: Int
    /// Changes made so far.
    public private(set) var changes = 0
    /// The latest change, if any.
    public private(set) var lastDecision: BitrateDecision?
    /// What the worst link delivered when it last had a queue (its capacity then), bits per second.
    public private(set) var linkEstimate: Int?
    /// The worst link's queueing delay at the latest reading, in seconds.
    public private(set) var queueingDelay = 0.0
    private var links: [Int: LinkWindow] = [:]
    private var lastChange = -Double.infinity
    private var lastDown = -Double.infinity
    /// When a decision last cut a backlog: the keyframe a cut asks for is itself a burst that can
    /// look like congestion again, so cuts are at least 5 s apart.
    private var lastCut = -Double.infinity
    private var emptySince: Double?
    /// Step ups since the last congestion.
    private var consecutiveUps = 0

    /// Starts at the settings' initial bitrate, clamped to the bounds.
    public init(settings: AdaptiveBitrateSettings) {
        self.settings = settings
        bitRate = min(max(settings.initialBitRate, settings.minimumBitRate), settings.maximumBitRate)
    }

    /// What one link's readings say now.
    private struct LinkState {
        var link: Int
        var rate: Int?
        var delay: Double
        var trend: Double
        var drops: Int
        var queuedBytes: Int
        var cause: String?
    }

    /// Takes one reading per network output (`link` tells them apart) and returns the change to
    /// make now, if any. Readings of all outputs at one instant should share their `time`.
    public mutating func update(_ measurements: [(link: Int, measurement: LinkMeasurement)]) -> BitrateDecision? {
        guard let now = measurements.map(\.measurement.time).max() else { return nil }
        let streamRate = Double(bitRate + settings.audioBitRate)
        var states: [LinkState] = []
        for (link, measurement) in measurements {
            guard measurement.isConnected else {
                // Offline: the backlog is dropped, not sent; the next connection starts afresh.
                links[link] = nil
                continue
            }
            var window = links[link] ?? LinkWindow()
            window.add(measurement, keeping: settings.throughputWindow, streamRate: streamRate)
            links[link] = window
            var rate = window.deliveryRate(span: settings.throughputWindow)
            for fraction in [0.5, 0.25] {
                // A link that just slowed shows it first in the most recent readings.
                if let all = rate, let recent = window.deliveryRate(span: settings.throughputWindow * fraction) {
                    rate = min(all, recent)
                }
            }
            let delay = window.currentDelay
            let trend = window.delayTrend(span: settings.throughputWindow)
            let drops = window.newDrops(span: settings.throughputWindow)
            let losses = window.newLosses(span: settings.throughputWindow)
            let previous = window.previousDelay
            // The delay that stood through the readings of the last half window and the whole
            // one: a keyframe's burst lifts the latest reading only, congestion all of them.
            let recentFloor = window.standingDelay(span: settings.throughputWindow / 2)
            let standing = window.standingDelay(span: settings.throughputWindow)
            var cause: String?
            if drops > 0 {
                cause = "\(drops) packets dropped by the transport"
            } else if losses > 0 && recentFloor > settings.earlyQueueThreshold {
                cause = String(format: "%d packets lost behind a %.2f s queue", losses, recentFloor)
            } else if delay > settings.earlyQueueThreshold && previous > settings.earlyQueueThreshold
                && delay >= previous && trend > settings.growthThreshold
            {
                cause = String(format: "delay growing %.2f s/s", trend)
            } else if recentFloor > settings.queueThreshold && trend > -0.1 {
                cause = String(format: "delay %.2f s not draining", delay)
            } else if standing > settings.standingQueue && trend > -0.1 {
                cause = String(format: "delay %.2f s standing", standing)
            }
            states.append(
                LinkState(
                    link: link, rate: rate, delay: delay, trend: trend, drops: drops,
                    queuedBytes: measurement.totalQueuedBytes, cause: cause))
        }
        queueingDelay = states.map(\.delay).max() ?? 0
        guard !states.isEmpty else {
            emptySince = nil
            return nil
        }
        let congested = states.filter { $0.cause != nil }
        if !congested.isEmpty {
            // The worst link: the lowest delivery rate (unknown counts as worst), else the longest delay.
            let worst = congested.min { ($0.rate ?? -1, -$0.delay) < ($1.rate ?? -1, -$1.delay) }!
            emptySince = nil
            consecutiveUps = 0
            if let rate = worst.rate { linkEstimate = rate }
            // The links whose backlog would keep the viewer more than `cutBacklogDelay` behind:
            // what waits, in seconds at the rate the link now delivers (the media time OnAir's
            // queue holds understates it right after a collapse: it was encoded for a faster link).
            var cuts: [Int] = []
            if let cut = settings.cutBacklogDelay, now - lastCut >= settings.minimumCutInterval {
                cuts = congested.filter { state in
                    let drain = state.rate.map { Double(state.queuedBytes) * 8 / Double(max($0, 1)) } ?? 0
                    return max(state.delay, drain) > cut
                }.map(\.link).sorted()
            }
            var target = Int(Double(bitRate) * 0.85)
            if let rate = worst.rate {
                // Leave room to send the backlog within `drainTime` as well.
                let drain = Double(worst.queuedBytes) * 8 / settings.drainTime
                target = min(target, Int(settings.headroom * Double(rate) - drain) - settings.audioBitRate)
            } else {
                target = min(target, Int(Double(bitRate) * 0.7))
            }
            target = max(target, settings.minimumBitRate)
            guard now - lastDown >= settings.stepDownInterval, target < bitRate else {
                // No step down now (the last one is recent, or the bitrate is at its minimum): a
                // backlog that keeps the viewer behind is still cut.
                guard !cuts.isEmpty else { return nil }
                lastCut = now
                var decision = BitrateDecision(
                    direction: .down, from: bitRate, to: bitRate, linkThroughput: worst.rate,
                    queuedSeconds: worst.delay, linkEstimate: linkEstimate, cause: worst.cause)
                decision.cutLinks = cuts
                lastDecision = decision
                return decision
            }
            lastDown = now
            var decision = decide(.down, to: target, at: now, rate: worst.rate, delay: worst.delay, cause: worst.cause)
            if !cuts.isEmpty {
                decision.cutLinks = cuts
                lastCut = now
                lastDecision = decision
            }
            return decision
        }
        let rates = states.compactMap(\.rate)
        if let lowest = rates.min(), let estimate = linkEstimate, lowest > estimate {
            // Delivering more than the estimate with an empty queue: the link has grown.
            linkEstimate = lowest
        }
        guard states.allSatisfy({ $0.delay <= settings.emptyQueue }) else {
            emptySince = nil
            return nil
        }
        if emptySince == nil { emptySince = now }
        let interval = consecutiveUps == 0 ? settings.stepUpInterval : settings.followingStepUpInterval
        guard let since = emptySince, now - since >= interval,
            now - lastChange >= interval, bitRate < settings.maximumBitRate
        else { return nil }
        var target: Int
        var cause: String
        let fair = linkEstimate.map { Int(settings.headroom * Double($0)) - settings.audioBitRate }
        let fraction = min(settings.maximumStepUpFraction, settings.stepUpFraction * pow(2, Double(max(0, consecutiveUps - 1))))
        let probe = Int(Double(bitRate) * (1 + fraction))
        if let fair, Double(bitRate) < 0.95 * Double(fair), fair >= probe || consecutiveUps == 0 {
            // Below what the link was measured to carry: straight back to the fraction of it.
            target = fair
            cause = String(format: "queue empty %.1f s, back to %.0f %% of the link estimate", now - since, settings.headroom * 100)
        } else if let estimate = linkEstimate, bitRate + settings.audioBitRate > estimate,
            states.contains(where: { state in
                guard let carried = state.rate, let input = links[state.link]?.inputRate(span: settings.throughputWindow) else {
                    return false
                }
                return Double(carried) < 0.97 * Double(min(input, Int(streamRate)))
            })
        {
            // Probing above the estimate and a link does not yet carry all the encoder gives it:
            // hold; either the queue stays empty and the link catches up, or the delay grows and
            // it steps down. (What the encoder makes may fall short of its target: that is no
            // reason to hold.)
            return nil
        } else {
            target = probe
            cause = String(format: "queue empty %.1f s, probing +%.0f %%", now - since, fraction * 100)
        }
        // A probe that gets within `stepUpFraction` of the maximum goes all the way.
        if Double(target) * (1 + settings.stepUpFraction) >= Double(settings.maximumBitRate),
            Double(bitRate) * (1 + settings.maximumStepUpFraction) >= Double(settings.maximumBitRate)
        {
            target = settings.maximumBitRate
        }
        target = min(settings.maximumBitRate, max(bitRate + 1, target))
        consecutiveUps += 1
        return decide(.up, to: target, at: now, rate: rates.min(), delay: queueingDelay, cause: cause)
    }

    /// Takes a reading of a single network output.
    public mutating func update(_ measurement: LinkMeasurement) -> BitrateDecision? {
        update([(link: 0, measurement: measurement)])
    }

    private mutating func decide(
        _ direction: BitrateDecision.Direction, to target: Int, at now: Double,
        rate: Int?, delay: Double, cause: String?
    ) -> BitrateDecision {
        let decision = BitrateDecision(
            direction: direction, from: bitRate, to: target, linkThroughput: rate,
            queuedSeconds: delay, linkEstimate: linkEstimate, cause: cause)
        bitRate = target
        changes += 1
        lastChange = now
        lastDecision = decision
        return decision
    }
}
