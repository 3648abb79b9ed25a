#if os(Linux)
import Foundation
import OnAirCore

/// Where the motion detector's changes go in `onair serve` (`--motion`): the counts `/metrics`
/// shows (`onair_motion_events_total`, `onair_motion_active`) and the ONVIF events service's
/// subscriptions. Changes arrive on the capture thread: nothing here blocks.
package final class ServeMotion: Sendable {
    /// What `/metrics` shows.
    package struct Figures: Sendable, Equatable {
        /// Whether the detector runs (the families are absent otherwise).
        package var enabled = false
        /// Motion starts so far.
        package var starts = 0
        /// Motion ends so far.
        package var ends = 0
        /// Whether there is motion now.
        package var active = false
    }

    private let figuresNow = Locked(Figures())
    private let listeners = Locked<[@Sendable (Bool, Date) -> Void]>([])

    /// No detector yet: `enable()` when one runs.
    package init() {}

    /// The detector runs.
    package func enable() { figuresNow.withLock { $0.enabled = true } }

    /// The figures now.
    package var figures: Figures { figuresNow.current }

    /// Calls `listener` with every change from now on (the ONVIF events), on the capture thread:
    /// it must not block.
    package func listen(_ listener: @escaping @Sendable (_ isMotion: Bool, _ at: Date) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Motion started (`isMotion`) or ended at the wall-clock time `at`.
    package func changed(isMotion: Bool, at: Date) {
        figuresNow.withLock { figures in
            if isMotion { figures.starts += 1 } else { figures.ends += 1 }
            figures.active = isMotion
        }
        for listener in listeners.current { listener(isMotion, at) }
    }
}
#endif
