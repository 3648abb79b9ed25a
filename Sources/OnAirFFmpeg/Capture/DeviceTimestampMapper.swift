#if os(Linux)
import OnAirCore

/// Puts one device stream's timestamps on the session's `CaptureClock`.
///
/// libavdevice stamps x11grab, pulse, alsa and (by default) v4l2 captures with wall-clock
/// microseconds; those map directly. A device whose timestamps are not wall-clock (a camera
/// with its own monotonic clock) is mapped by a fixed offset fixed at its first frame, keeping
/// its spacing. A device that gives none, or goes backwards, is stamped with `clock.now()`.
struct DeviceTimestampMapper {
    private enum Mode { case wallClock, offset(Int64), hostClock }
    private var mode: Mode?
    private var lastMapped: MediaTime?
    /// How far a wall-clock stamp may be from now and still be trusted as one.
    private let wallClockTolerance = 10.0

    /// The session time for a device timestamp (`MediaTime.zero` means the device gave none).
    mutating func map(_ devicePTS: MediaTime, clock: CaptureClock) -> MediaTime {
        let now = clock.now()
        let micros = devicePTS.converted(to: 1_000_000).value
        if mode == nil {
            if devicePTS == .zero {
                mode = .hostClock
            } else if abs(clock.time(fromWallClockMicroseconds: micros).seconds - now.seconds) < wallClockTolerance {
                mode = .wallClock
            } else {
                mode = .offset(now.value - micros)
            }
        }
        var mapped: MediaTime
        switch mode {
        case .wallClock: mapped = clock.time(fromWallClockMicroseconds: micros)
        case .offset(let offset): mapped = MediaTime(value: micros + offset, timescale: 1_000_000)
        case .hostClock, .none: mapped = now
        }
        if let lastMapped, mapped <= lastMapped {
            mapped = max(now, MediaTime(value: lastMapped.converted(to: 1_000_000).value + 1, timescale: 1_000_000))
        }
        lastMapped = mapped
        return mapped
    }
}
#endif
