import OnAirCore
import OnAirLive

/// When the Apple player (`PlaybackView`) shows each decoded picture — the decision `onair play`
/// makes, with the same code (OnAirLive's `MasterClock` and `FrameScheduler`): with sound, the
/// media time being heard (the audio queue's played time) is the clock; without, the wall clock
/// from the first picture. Pictures whose time has come are taken, the last shown, the earlier ones
/// dropped as late; a full queue drops its oldest.
public struct PictureTimeline<Picture: Sendable>: Sendable {
    /// What to do now.
    public struct Decision: Sendable {
        /// The picture to show, or nil when none is due.
        public var show: Picture?
        /// Pictures dropped by this decision (late, or pushed out of a full queue since the last one).
        public var dropped: Int
        /// Seconds until the next waiting picture is due, or nil when none waits or the clock has not started.
        public var nextDue: Double?
    }

    /// Pictures that may wait.
    public let capacity: Int
    private var clock: MasterClock
    private var waiting: [(pts: Double, picture: Picture)] = []
    private var overflowed = 0
    /// Pictures dropped so far.
    public private(set) var dropped = 0

    /// A timeline whose clock is the sound (`soundIsClock`) or the wall clock, holding at most `capacity` pictures.
    public init(soundIsClock: Bool, capacity: Int = 30) {
        clock = MasterClock(source: soundIsClock ? .audio : .wall)
        self.capacity = max(1, capacity)
    }

    /// Pictures waiting.
    public var count: Int { waiting.count }

    /// Adds a decoded picture; kept in presentation order.
    public mutating func add(_ picture: Picture, pts: MediaTime) {
        let time = pts.seconds
        let index = waiting.firstIndex { $0.pts > time } ?? waiting.count
        waiting.insert((time, picture), at: index)
        if waiting.count > capacity {
            waiting.removeFirst()
            overflowed += 1
        }
    }

    /// The decision at wall time `now` (seconds, monotonic) with the sound at `heard` (the media
    /// time being played; nil before the sound starts, and ignored on the wall clock).
    public mutating func decide(now: Double, heard: MediaTime?) -> Decision {
        switch clock.source {
        case .audio:
            clock.audioEnd = heard?.seconds
            clock.audioWaiting = 0
        case .wall:
            if clock.time(now: now) == nil, let first = waiting.first { clock.anchor(media: first.pts, now: now) }
        }
        var decision = Decision(show: nil, dropped: overflowed, nextDue: nil)
        overflowed = 0
        if let time = clock.time(now: now) {
            let schedule = FrameScheduler.decide(times: waiting.map(\.pts), clock: time)
            if let show = schedule.show { decision.show = waiting[show].picture }
            decision.dropped += schedule.dropped
            decision.nextDue = schedule.nextDue
            waiting.removeFirst(schedule.taken)
        }
        dropped += decision.dropped
        return decision
    }

    /// Forgets the waiting pictures and the clock's anchor (a new stream, a seek).
    public mutating func reset() {
        waiting.removeAll()
        clock.reset()
    }
}
