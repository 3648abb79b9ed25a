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
    /// The throughput of the worst link over the measurement window (bits per second), if known.
    public var linkThroughput: Int?
    /// Seconds the worst link's queue takes to send (queued bytes at its throughput).
    public var queuedSeconds: Double

    /// Creates a decision.
    public init(direction: Direction, from: Int, to: Int, linkThroughput: Int?, queuedSeconds: Double) {
        self.direction = direction
        self.from = from
        self.to = to
        self.linkThroughput = linkThroughput
        self.queuedSeconds = queuedSeconds
    }

    /// Why, in words: "link 1.1 Mb/s, queue 0.8 s" or "queue empty, probing up".
    public var reason: String {
        let link = linkThroughput.map { String(format: "link %.1f Mb/s", Double($0) / 1_000_000) } ?? "link unknown"
        let queue = String(format: "queue %.1f s", queuedSeconds)
        return direction == .down ? "\(link), \(queue)" : "\(queue), probing up (\(link))"
    }

    /// The status line: "abr: 2500 → 1200 kb/s (link 1.1 Mb/s, queue 0.8 s)".
    public var summary: String {
        "abr: \(from / 1000) → \(to / 1000) kb/s (\(reason))"
    }
}
