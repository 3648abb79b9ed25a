import Foundation

/// The one clock audio and video share in a session: monotonic host time since the session began,
/// plus `timelineStart`.
///
/// Sources stamp what they capture with `now()`, or convert their device's own wall-clock
/// timestamps with `time(fromWallClockMicroseconds:)`, so both streams sit on the same timeline.
/// The media time line starts at `timelineStart` (0 but for diagnostics: `--timeline-start` puts
/// the MPEG-TS and RTP wraps a few seconds into a run); `elapsed` does not count it.
package struct CaptureClock: Sendable {
    private let originNanoseconds: UInt64
    private let wallClockAtOrigin: Double
    /// Media time at the clock's zero, in microseconds.
    private let startMicroseconds: Int64

    /// Starts a clock at `timelineStart` seconds of media time now.
    public init(timelineStart: Double = 0) {
        originNanoseconds = DispatchTime.now().uptimeNanoseconds
        wallClockAtOrigin = Date().timeIntervalSince1970
        startMicroseconds = Int64((timelineStart * 1_000_000).rounded())
    }

    /// The media time at the clock's zero (seconds).
    public var timelineStart: Double { Double(startMicroseconds) / 1_000_000 }

    /// Seconds elapsed since the origin.
    public var elapsed: Double {
        Double(DispatchTime.now().uptimeNanoseconds &- originNanoseconds) / 1e9
    }

    /// The current time on the session timeline, in microseconds.
    public func now() -> MediaTime {
        MediaTime(
            value: Int64((DispatchTime.now().uptimeNanoseconds &- originNanoseconds) / 1_000) + startMicroseconds, timescale: 1_000_000)
    }

    /// Maps a wall-clock timestamp (microseconds since 1970, as libavdevice stamps captures) onto the timeline.
    public func time(fromWallClockMicroseconds wall: Int64) -> MediaTime {
        let seconds = Double(wall) / 1e6 - wallClockAtOrigin
        return MediaTime(value: Int64((seconds * 1e6).rounded()) + startMicroseconds, timescale: 1_000_000)
    }

    /// Blocks the calling thread until the timeline reaches `time` (returns at once if it has).
    public func sleep(until time: MediaTime) {
        let remaining = time.seconds - timelineStart - elapsed
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    }
}
