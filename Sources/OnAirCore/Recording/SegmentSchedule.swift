import Foundation

/// When a segmented recording starts a segment, cuts to the next one and closes a part (flush
/// and sync to disk), from packet times alone: pure, so tests drive it with made-up times.
///
/// A segment starts on a video keyframe (on any packet when there is no video) and is cut on the
/// first keyframe at or past `segmentDuration` after its start, so each one plays alone and the
/// next begins exactly where it ends. A part is due every `partDuration` of media time.
package struct SegmentSchedule: Sendable {
    /// What to do with a packet.
    public enum Decision: Sendable, Equatable {
        /// Before the first keyframe: leave it out.
        case skip
        /// Start the first segment with it.
        case start
        /// Close the current segment and start the next one with it.
        case cut
        /// Add it to the current segment.
        case append
    }

    /// Seconds a segment lasts at least (cut on the next keyframe); a reload may change it, and
    /// the segment under way is then cut by the new length.
    public var segmentDuration: Double
    /// Seconds of media between flushes to disk (a reload may change it).
    public var partDuration: Double
    /// Whether the recording has video (segments then start on video keyframes only).
    public let hasVideo: Bool
    /// Media time the current segment started at, nil before the first.
    public private(set) var segmentStart: Double?
    private var partStart: Double?
    /// Times within a microsecond count as reached: a keyframe exactly `segmentDuration` after the
    /// start cuts even when the subtraction in seconds rounds a little below it.
    static let slack = 1e-6

    /// A schedule for segments of at least `segmentDuration` seconds and parts of `partDuration`.
    public init(segmentDuration: Double, partDuration: Double, hasVideo: Bool) {
        self.segmentDuration = segmentDuration
        self.partDuration = partDuration
        self.hasVideo = hasVideo
    }

    /// The decision for a packet of media time `time` (seconds). With `cutNow` (the stream's
    /// parameters changed: a restarted encode), a segment under way is cut at this packet if a
    /// segment may start here, whatever its length.
    public mutating func decide(isVideo: Bool, isKeyframe: Bool, time: Double, cutNow: Bool = false) -> Decision {
        let canStart = hasVideo ? (isVideo && isKeyframe) : true
        guard let start = segmentStart else {
            guard canStart else { return .skip }
            segmentStart = time
            partStart = time
            return .start
        }
        if canStart && (cutNow || time - start >= segmentDuration - Self.slack) {
            segmentStart = time
            partStart = time
            return .cut
        }
        return .append
    }

    /// Whether a part is due once the packet at `time` is in (then the next part starts there).
    public mutating func partDue(at time: Double) -> Bool {
        guard let start = partStart else { return false }
        guard time - start >= partDuration - Self.slack else { return false }
        partStart = time
        return true
    }
}

/// Maps media time to wall-clock time for naming segments: anchored at the first packet and kept
/// there (so back-to-back segments get back-to-back names), re-anchored when the wall clock has
/// moved more than `tolerance` away from it (an NTP step, months of drift).
package struct WallClockAnchor: Sendable {
    /// How far the anchored time may be from the clock before it is re-anchored (seconds).
    public let tolerance: Double
    private var anchor: (wall: Date, media: Double)?

    /// An anchor re-set past `tolerance` seconds of disagreement.
    public init(tolerance: Double = 1) {
        self.tolerance = tolerance
    }

    /// The wall-clock time of media time `media`, given the clock reads `now` for it.
    public mutating func wallTime(media: Double, now: Date) -> Date {
        if let anchor {
            let mapped = anchor.wall.addingTimeInterval(media - anchor.media)
            if abs(mapped.timeIntervalSince(now)) <= tolerance { return mapped }
        }
        anchor = (now, media)
        return now
    }
}
