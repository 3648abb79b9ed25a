#if os(Linux)
/// Paces what a viewer without flow control (RTSP over UDP) is sent at its join: the keyframe
/// cache (up to a GOP of media, a megabyte at 720p and 4 Mb/s) would otherwise leave at once,
/// faster than a player's socket receive buffer (ffmpeg asks for 384 KiB, GStreamer 512 KiB) is
/// read on a busy machine, and the kernel drops the rest (`RcvbufErrors`). Media is let out at
/// `speed` times real time from the first packet on: the cache is sent `speed` times faster
/// than it was made and reaches live after `age / (speed − 1)`; live packets, which come at real
/// time, are never held. The first packet (the keyframe itself) always goes at once.
struct ServeJoinPacer: Sendable {
    /// How many times faster than real time the cached media may leave.
    let speed: Double
    private var start: (media: Double, clock: Double)?

    /// A pacer letting media out at `speed` (more than 1) times real time.
    init(speed: Double = 2) {
        precondition(speed > 1, "a join pacer must send faster than real time")
        self.speed = speed
    }

    /// Seconds to wait before sending a packet of media time `media` (seconds) when the clock
    /// reads `now` (seconds, monotonic); 0: send now. The first call starts the schedule.
    mutating func delay(media: Double, now: Double) -> Double {
        guard let start else {
            self.start = (media, now)
            return 0
        }
        let due = start.clock + max(0, media - start.media) / speed
        return max(0, due - now)
    }
}
#endif
