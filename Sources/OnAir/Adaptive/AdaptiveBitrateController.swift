/// Decides the video bitrate from what the network outputs carry: a pure state machine fed
/// with `LinkMeasurement`s (no clocks, threads or I/O of its own), so it is tested with
/// synthetic readings.
///
/// A link is congested when more than `queueThreshold` seconds of media wait and the queue is
/// not draining, or when it sends well below the stream's rate while its queue grows (queued
/// time is the queued bytes at the measured throughput: what the queue adds to latency). Then the
/// bitrate steps down to `headroom` × measured throughput minus audio minus what sends the
/// backlog within `drainTime` (at least a 10 % step, at most once per `stepDownInterval`). When
/// every link's queue stays empty for `stepUpInterval` (`followingStepUpInterval` after a step up),
/// it steps up: by `stepUpFraction`, growing with each step in a row up to `maximumStepUpFraction`,
/// but by `stepUpFraction` again within 15 % of what the link carried when it last fell behind. The result always lies within the settings' bounds.
public struct AdaptiveBitrateController: Sendable {
    /// The bounds and thresholds.
    public let settings: AdaptiveBitrateSettings
    /// The video bitrate the encoder should use now, in bits per second.
    public private(set) var bitRate: Int
    /// Changes made so far.
    public private(set) var changes = 0
    /// The latest change, if any.
    public private(set) var lastDecision: BitrateDecision?
    private var links: [Int: LinkWindow] = [:]
    private var lastChange = -Double.infinity
    private var emptySince: Double?
    /// Step ups since the last congestion.
    private var consecutiveUps = 0
    /// The video bitrate the link carried when it last fell behind (its capacity then).
    private var congestedRate: Int?

    /// The recent readings of one link.
    private struct LinkWindow: Sendable {
        var samples: [LinkMeasurement] = []

        mutating func add(_ sample: LinkMeasurement, keeping window: Double) {
            if let last = samples.last, sample.bytesSent < last.bytesSent || sample.time <= last.time { samples.removeAll() }
            samples.append(sample)
            while samples.count > 2 && sample.time - samples[1].time >= window { samples.removeFirst() }
        }

        /// Bits per second sent over the window, once it spans at least half of `window`.
        func throughput(window: Double) -> Int? {
            guard let first = samples.first, let last = samples.last, last.time - first.time >= window / 2 else { return nil }
            return Int(Double(last.bytesSent - first.bytesSent) * 8 / (last.time - first.time))
        }

        /// Bits per second sent over about the last `span` seconds (nil until two readings span
        /// at least half of it). Right after a link slows down, the full window still holds the
        /// faster past (and the burst that filled the socket buffer); this sees the new rate.
        func recentThroughput(span: Double) -> Int? {
            guard let last = samples.last,
                  let first = samples.last(where: { last.time - $0.time >= span - 1e-9 }) ?? samples.first,
                  last.time - first.time >= span / 2 else { return nil }
            return Int(Double(last.bytesSent - first.bytesSent) * 8 / (last.time - first.time))
        }
        /// How long the queue takes to send: its bytes at `throughput`, or (throughput unknown)
        /// the seconds of media in it.
        func delay(_ sample: LinkMeasurement, throughput: Int?) -> Double {
            guard let throughput, throughput > 0 else { return sample.queuedSeconds }
            return Double(sample.queuedBytes) * 8 / Double(throughput)
        }

        /// How fast that delay changed over about the last second (seconds per second).
        func delayTrend(throughput: Int?) -> Double {
            guard let last = samples.last else { return 0 }
            guard let reference = samples.first(where: { last.time - $0.time <= 1.0 + 1e-9 && $0.time < last.time })
                ?? samples.dropLast().last else { return 0 }
            return (delay(last, throughput: throughput) - delay(reference, throughput: throughput)) / (last.time - reference.time)
        }
    }

    /// Starts at the settings' initial bitrate, clamped to the bounds.
    public init(settings: AdaptiveBitrateSettings) {
        self.settings = settings
        bitRate = min(max(settings.initialBitRate, settings.minimumBitRate), settings.maximumBitRate)
    }

    /// Takes one reading per network output (`link` tells them apart) and returns the change to
    /// make now, if any. Readings of all outputs at one instant should share their `time`.
    public mutating func update(_ measurements: [(link: Int, measurement: LinkMeasurement)]) -> BitrateDecision? {
        guard let now = measurements.map(\.measurement.time).max() else { return nil }
        var worstCongested: (throughput: Int?, queued: Double, bytes: Int)?
        var allEmpty = true
        var anyConnected = false
        for (link, measurement) in measurements {
            guard measurement.isConnected else {
                // Offline: the backlog is dropped, not sent; the next connection starts afresh.
                links[link] = nil
                continue
            }
            anyConnected = true
            var window = links[link] ?? LinkWindow()
            window.add(measurement, keeping: settings.throughputWindow)
            links[link] = window
            var throughput = window.throughput(window: settings.throughputWindow)
            if let all = throughput, let recent = window.recentThroughput(span: settings.throughputWindow / 2) {
                // A link that just slowed shows it first in the recent half.
                throughput = min(all, recent)
            }
            let delay = window.delay(measurement, throughput: throughput)
            let trend = window.delayTrend(throughput: throughput)
            let streamRate = Double(bitRate + settings.audioBitRate)
            let backlogged = delay > settings.queueThreshold && trend > -0.1
            let starved = throughput.map { Double($0) < 0.7 * streamRate } ?? false
                && delay > settings.emptyQueue && trend > 0.1
            if delay > settings.emptyQueue { allEmpty = false }
            if backlogged || starved {
                let worse = worstCongested.map { current in
                    switch (throughput, current.throughput) {
                    case let (mine?, theirs?): return mine < theirs
                    case (_?, nil): return true
                    default: return delay > current.queued
                    }
                } ?? true
                if worse { worstCongested = (throughput, delay, measurement.queuedBytes) }
            }
        }
        if let congested = worstCongested {
            emptySince = nil
            consecutiveUps = 0
            guard now - lastChange >= settings.stepDownInterval else { return nil }
            var target = Int(Double(bitRate) * 0.9)
            if let throughput = congested.throughput {
                // Leave room to send the backlog within `drainTime` as well.
                let drain = Double(congested.bytes) * 8 / settings.drainTime
                target = min(target, Int(settings.headroom * Double(throughput) - drain) - settings.audioBitRate)
            } else {
                target = min(target, Int(Double(bitRate) * 0.7))
            }
            target = max(target, settings.minimumBitRate)
            guard target < bitRate else { return nil }
            // What the link carried for video when it fell behind (its capacity then).
            congestedRate = congested.throughput.map { max(settings.minimumBitRate, $0 - settings.audioBitRate) } ?? bitRate
            return decide(.down, to: target, at: now, throughput: congested.throughput, queued: congested.queued)
        }
        guard anyConnected, allEmpty else {
            emptySince = nil
            return nil
        }
        if emptySince == nil { emptySince = now }
        let interval = consecutiveUps == 0 ? settings.stepUpInterval : settings.followingStepUpInterval
        guard let since = emptySince, now - since >= interval,
              now - lastChange >= interval, bitRate < settings.maximumBitRate else { return nil }
        var fraction = min(settings.maximumStepUpFraction, settings.stepUpFraction * Double(consecutiveUps + 1))
        if let congestedRate, Double(bitRate) < 1.15 * Double(congestedRate),
           Double(bitRate) * (1 + fraction) > 0.85 * Double(congestedRate) {
            fraction = min(fraction, settings.stepUpFraction)
        }
        let target = min(settings.maximumBitRate, max(bitRate + 1, Int(Double(bitRate) * (1 + fraction))))
        consecutiveUps += 1
        let throughput = measurements.compactMap { links[$0.link]?.throughput(window: settings.throughputWindow) }.min()
        let queued = measurements.map(\.measurement.queuedSeconds).max() ?? 0
        return decide(.up, to: target, at: now, throughput: throughput, queued: queued)
    }

    /// Takes a reading of a single network output.
    public mutating func update(_ measurement: LinkMeasurement) -> BitrateDecision? {
        update([(link: 0, measurement: measurement)])
    }

    private mutating func decide(_ direction: BitrateDecision.Direction, to target: Int, at now: Double,
                                 throughput: Int?, queued: Double) -> BitrateDecision {
        let decision = BitrateDecision(direction: direction, from: bitRate, to: target, linkThroughput: throughput, queuedSeconds: queued)
        bitRate = target
        changes += 1
        lastChange = now
        lastDecision = decision
        return decision
    }
}
