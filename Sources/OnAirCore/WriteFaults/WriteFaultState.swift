import Foundation

/// One output's part in a `WriteFaults` injection: the writer tells it where it is (`enter`),
/// and its I/O asks it whether this open, write or close must fail and with which `errno`.
///
/// Opening fails for `.open`; closing fails for `.close` (writes then succeed); for any other
/// moment every write from that moment on fails. Thread-safe.
package final class WriteFaultState: Sendable {
    /// The moment writes start failing.
    public let moment: WriteMoment
    /// The `errno` the failing calls report (ENOSPC: a full disk).
    public let errorNumber: Int32
    private let state = Locked((current: WriteMoment.open, failures: 0))

    init(moment: WriteMoment, errorNumber: Int32) {
        self.moment = moment
        self.errorNumber = errorNumber
    }

    /// The writer has reached `moment` (moments only move forward).
    public func enter(_ moment: WriteMoment) {
        state.withLock { $0.current = max($0.current, moment) }
    }

    /// Whether opening the file fails; counted when it does.
    public func failsOpen() -> Bool { fails(moment == .open) }

    /// Whether a write at the current moment fails; counted when it does.
    public func failsWrite() -> Bool {
        let now = state.withLock { $0.current }
        return fails(moment != .open && moment != .close && now >= moment)
    }

    /// Whether closing the file fails; counted when it does.
    public func failsClose() -> Bool { fails(moment == .close) }

    /// How many calls were made to fail.
    public var failureCount: Int { state.withLock { $0.failures } }

    private func fails(_ yes: Bool) -> Bool {
        if yes { state.withLock { $0.failures += 1 } }
        return yes
    }
}
