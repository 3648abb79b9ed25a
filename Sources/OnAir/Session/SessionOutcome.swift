import OnAirLive

/// How a session ended: why, its totals after the encoders drained, and the outputs that failed
/// while the others completed.
public struct SessionOutcome: Sendable {
    /// Why it stopped.
    public var reason: Session.StopReason
    /// Totals since the start.
    public var statistics: LiveStatistics
    /// Outputs that failed (disk full, I/O error, refused connection); every other one is complete.
    public var failedOutputs: [OutputFailure]
    /// Viewer totals when the session served viewers.
    public var viewers: ViewerTotals?
    /// The process's peak resident memory so far (Linux's VmHWM), in bytes; 0 where unknown.
    public var peakResidentBytes: Int { ResidentMemory.peak() }

    /// Throws `OutputsFailedError` naming the failed outputs, if any (a command exits 1 on it).
    public func check() throws {
        if !failedOutputs.isEmpty { throw OutputsFailedError(failures: failedOutputs) }
    }
}
