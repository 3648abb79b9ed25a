#if os(Linux)
/// How a network sink connects, notices a dead or stalled peer, and tries again.
///
/// After a failure it waits `initialDelay`, then twice as long after each further failure, at
/// most `maximumDelay`; a successful connection starts the sequence over.
public struct ReconnectPolicy: Sendable, Codable, Equatable {
    /// The first wait after a failure, in seconds.
    public var initialDelay = 0.25
    /// The longest wait between attempts, in seconds.
    public var maximumDelay = 2.0
    /// How long a connect may take (callers; listeners wait for their peer until stopped).
    public var connectTimeout = 5.0
    /// How long one send may stall before the connection counts as dead.
    public var sendTimeout = 3.0

    /// Creates the default policy: 0.25 s doubling to 2 s, 5 s to connect, 3 s per send.
    public init() {}

    /// The wait after `failures` consecutive failed attempts (1 for the first).
    public func delay(afterFailures failures: Int) -> Double {
        var delay = initialDelay
        for _ in 1..<max(failures, 1) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }
}
#endif
