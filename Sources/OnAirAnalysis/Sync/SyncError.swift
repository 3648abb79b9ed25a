#if os(Linux)
import OnAirCore

/// Sync measurement could not run on the given media.
package enum SyncError: OnAirError, Equatable {
    /// The PCM buffer's planes do not match its declared layout; carries the reason.
    case malformedAudio(String)

    /// One line naming what is wrong.
    public var description: String {
        switch self {
        case .malformedAudio(let reason): return "malformed PCM buffer: \(reason)"
        }
    }
}
#endif
