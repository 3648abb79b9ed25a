import Foundation

/// A change of the video bitrate made by `AdaptiveBitrateController`, and why.
public struct BitrateDecision: Sendable, Equatable, Codable {
    /// Which way the bitrate went.
    public enum Direction: String, Sendable, Codable {
        /// The link could not carry the stream.
        case down
        /// The link kept up; probing a higher rate.
        case up
    }

    /// Which way the bitrate went.
    public var direction: Direction
    /// The video bitrate before, in bits per second.
    public var from: Int
    /// The video bitrate after, in bits per second.
    public var to: Int
    /// What the worst link delivered over the measurement window (bits per second), if known.
    public var linkThroughput: Int?
    /// The worst link's queueing delay in seconds (everything between encoder and wire, plus the
    /// network's own queue seen in the round trip).
    public var queuedSeconds: Double
    /// The link estimate the decision was bounded by (bits per second), if known.
    public var linkEstimate: Int?
    /// What triggered it, in words ("delay growing 0.6 s/s", "3 packets dropped by SRT", "queue empty 1.5 s").
    public var cause: String?
    /// The links whose backlog is cut now (skip to a fresh keyframe): the link collapsed under the
    /// stream and what is queued would keep the viewer behind for seconds at the new rate.
    public var cutLinks: [Int] = []

    /// Creates a decision.
    public init(
        direction: Direction, from: Int, to: Int, linkThroughput: Int?, queuedSeconds: Double,
        linkEstimate: Int? = nil, cause: String? = nil
    ) {
        self.direction = direction
        self.from = from
        self.to = to
        self.linkThroughput = linkThroughput
        self.queuedSeconds = queuedSeconds
        self.linkEstimate = linkEstimate
        self.cause = cause
    }

    /// Why, in words: "delay growing 0.6 s/s; link 1.0 Mb/s, queue 0.3 s".
    public var reason: String {
        let link = linkThroughput.map { String(format: "link %.2f Mb/s", Double($0) / 1_000_000) } ?? "link unknown"
        let queue = String(format: "queue %.2f s", queuedSeconds)
        let estimate = linkEstimate.map { String(format: ", estimate %.2f Mb/s", Double($0) / 1_000_000) } ?? ""
        let prefix = cause.map { "\($0); " } ?? ""
        let cut = cutLinks.isEmpty ? "" : "; backlog cut"
        return direction == .down
            ? "\(prefix)\(link), \(queue)\(estimate)\(cut)"
            : "\(prefix)\(queue), probing up (\(link)\(estimate))"
    }

    /// The status line: "abr: 2500 → 1200 kb/s (delay growing 0.6 s/s; link 1.00 Mb/s, queue 0.30 s)";
    /// a decision that only cuts the backlog: "abr: 200 kb/s kept (…; backlog cut)".
    public var summary: String {
        from == to ? "abr: \(to / 1000) kb/s kept (\(reason))" : "abr: \(from / 1000) → \(to / 1000) kb/s (\(reason))"
    }
}
