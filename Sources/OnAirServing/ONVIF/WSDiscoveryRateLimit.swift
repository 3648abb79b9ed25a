#if os(Linux)
import OnAirCore

/// How often the WS-Discovery responder answers (a Probe is small and its answer large, so a
/// responder is an amplifier for spoofed sources): token buckets, one for all sources
/// (`overall` answers a second, bursts of twice that) and one per source address (`perSource`
/// a second, bursts of 4), the sources remembered bounded (`maximumSources`; when full, those
/// whose bucket has refilled are forgotten, then all). Times are passed in (monotonic seconds).
package struct WSDiscoveryRateLimit: Sendable {
    private struct Bucket {
        var tokens: Double
        var time: Double

        mutating func take(rate: Double, burst: Double, now: Double) -> Bool {
            tokens = min(burst, tokens + max(0, now - time) * rate)
            time = now
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }

    /// Answers a second from all sources together.
    package var overall: Double
    /// Answers a second to one source.
    package var perSource: Double
    /// Sources remembered at most.
    package var maximumSources: Int
    private var all: Bucket
    private var sources: [String: Bucket] = [:]

    /// A limit of `overall` answers a second, `perSource` to one address, `maximumSources` remembered.
    package init(overall: Double = 20, perSource: Double = 2, maximumSources: Int = 256) {
        self.overall = overall
        self.perSource = perSource
        self.maximumSources = maximumSources
        all = Bucket(tokens: overall * 2, time: -.infinity)
    }

    /// Whether an answer to `source` may go at `now` (taking its share when it may).
    package mutating func admit(_ source: String, now: Double) -> Bool {
        if sources[source] == nil, sources.count >= maximumSources {
            sources = sources.filter { now - $0.value.time < 4 / perSource }
            if sources.count >= maximumSources { sources = [:] }
        }
        var bucket = sources[source] ?? Bucket(tokens: 4, time: now)
        guard bucket.take(rate: perSource, burst: 4, now: now) else {
            sources[source] = bucket
            return false
        }
        sources[source] = bucket
        return all.take(rate: overall, burst: overall * 2, now: now)
    }
}
#endif
