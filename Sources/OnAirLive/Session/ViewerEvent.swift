/// A viewer that joined or left a served stream, as a session reports it.
public enum ViewerEvent: Sendable, Equatable {
    /// A viewer was admitted (`transport`: "http", "srt", …; `peer`: its address).
    case joined(id: Int, transport: String, peer: String)
    /// A viewer left: closed or gone (`cut` nil), or cut by the server (`cut` says why: too
    /// slow, with how far behind it was and what held it back, or its credential withdrawn).
    case left(id: Int, transport: String, peer: String, cut: String?)
}

/// The viewers a serving session has had since its start.
public struct ViewerTotals: Sendable, Codable, Equatable {
    /// Viewers served now.
    public var viewers = 0
    /// Viewers admitted since the start.
    public var served = 0
    /// The most viewers served at once since the start (never above the limit).
    public var peakViewers = 0
    /// Viewers refused because the most allowed were served.
    public var refusedFull = 0
    /// Viewers cut for being too slow.
    public var cutTooSlow = 0
    /// Viewers cut because a reload withdrew the token (or user) that admitted them.
    public var cutCredentialWithdrawn = 0
    /// Skips to a keyframe, summed over every viewer that has left.
    public var skipsOfViewersGone = 0
    /// Bytes sent, summed over every viewer that has left, by transport (`/metrics` adds the current viewers').
    public var bytesSentOfViewersGone: [String: Int] = [:]

    /// No viewers yet.
    public init() {}
}
