extension Session {
    /// Why a session stopped.
    public enum StopReason: Sendable, Equatable, CustomStringConvertible {
        /// The configured duration of media was captured.
        case durationReached
        /// Every source ended by itself (end of file).
        case sourcesEnded
        /// `stop()` was called or the task running it was cancelled.
        case cancelled
        /// A signal asked the process to stop (SIGINT or SIGTERM).
        case interrupted(signal: Int32)
        /// A source, an encoder or every output failed; the outcome's error says which.
        case failed

        /// The reason in words, for the final status line.
        public var description: String {
            switch self {
            case .durationReached: return "duration reached"
            case .sourcesEnded: return "sources ended"
            case .cancelled: return "cancelled"
            case .interrupted(let signal): return signal == 2 ? "interrupted" : "terminated"
            case .failed: return "error"
            }
        }
    }
}

/// `Session.StopReason` by its short name, inside the package.
package typealias StopReason = Session.StopReason
