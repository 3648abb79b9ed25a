#if os(Linux)
/// Makes one continuous timeline of an input whose timestamps jump: two recordings joined byte
/// for byte, a sender that restarted, a new program in an MPEG-TS. Each jump starts a new
/// *segment* whose timestamps are all shifted by one offset, for audio and video together, so
/// that sound and picture keep the relation they had in the source and the new segment follows
/// the previous one without a gap or an overlap.
///
/// A track jumps when its decoding time (else presentation time) goes back more than
/// `backwardBound` or forward more than `forwardBound` seconds from its previous packet (the
/// bounds ffmpeg uses to find a discontinuity: 0.1 s back, 10 s forward). The tracks of an
/// interleaved input do not jump at the same packet — the demuxer still hands out the last
/// packets of the old segment on one track after the new one began on another — so a track's
/// packets after its jump are held until every track that was playing has jumped too (or
/// `holdSpan` seconds of them are held); the offset is then the least that puts every jumped
/// track's first new packet at or after that track's end, with decoding times still rising.
/// A track that jumps only after that follows the same offset.
///
/// `Item` is what travels with each packet (the packet itself); use from one thread.
struct TimelineJoiner<Item> {
    /// An item let through, with the seconds to add to its timestamps.
    struct Output {
        var item: Item
        var track: Int
        var offset: Double
        /// The first item of its track in a new segment (its timestamps jumped).
        var startsSegment = false
    }

    /// A step back in decoding time beyond this (seconds) is a jump.
    var backwardBound = 0.1
    /// A step forward beyond this (seconds) is a jump.
    var forwardBound = 10.0
    /// Seconds of held media (or `holdCount` packets) after which a segment is fixed even though
    /// not every track has jumped yet.
    var holdSpan = 1.0
    var holdCount = 600
    /// A track whose media ended more than this many seconds before the newest is not waited for.
    var activeWindow = 1.0
    /// The least step between two decoding times of a track across a join (seconds).
    var minimumStep = 0.001

    /// Jumps so far (segments after the first).
    private(set) var jumps = 0

    private struct Track {
        var segment: Int
        /// Seconds added on top of the segment's offset (a track that followed a fixed segment late).
        var extra = 0.0
        var lastRaw: Double
        /// End of the presentation (adjusted) and the last adjusted decoding time.
        var end: Double
        var lastDTS: Double
    }

    private struct Held {
        var item: Item
        var track: Int
        var pts: Double?, dts: Double?, duration: Double
    }

    private struct Pending {
        var held: [Held] = []
        var jumped: Set<Int> = []
        var waitingFor: Set<Int>
        var firstRaw: Double
        var lastRaw: Double
    }

    private var offsets: [Double] = [0]
    private var tracks: [Int: Track] = [:]
    private var pending: Pending?

    /// Whether anything is held.
    var isHolding: Bool { pending != nil }

    /// Takes one item of `track` with its raw timestamps (seconds) and returns the items that can
    /// go on now, in order.
    mutating func push(_ item: Item, track: Int, pts: Double?, dts: Double?, duration: Double) -> [Output] {
        guard let raw = dts ?? pts else {
            // No timestamp to judge: it goes with its track.
            if pending?.jumped.contains(track) == true {
                pending!.held.append(Held(item: item, track: track, pts: nil, dts: nil, duration: duration))
                return []
            }
            let state = tracks[track]
            return [Output(item: item, track: track, offset: state.map { offsets[$0.segment] + $0.extra } ?? offsets.last!)]
        }
        let entry = Held(item: item, track: track, pts: pts, dts: dts, duration: duration)
        if var waiting = pending, waiting.jumped.contains(track) {
            waiting.held.append(entry)
            waiting.lastRaw = max(waiting.lastRaw, raw)
            pending = waiting
            return releaseIfDue()
        }
        guard let state = tracks[track] else {
            // A track new to the input: with a segment pending it belongs to that one.
            if pending != nil {
                pending!.jumped.insert(track)
                pending!.held.append(entry)
                return releaseIfDue()
            }
            return [emit(entry, startsSegment: false)]
        }
        let step = raw - state.lastRaw
        guard step < -backwardBound || step > forwardBound else { return [emit(entry, startsSegment: false)] }
        if pending != nil {
            pending!.jumped.insert(track)
            pending!.held.append(entry)
            return releaseIfDue()
        }
        if state.segment < offsets.count - 1 {
            // Other tracks started a segment that is fixed already: follow it.
            follow(track: track, raw: raw, present: pts ?? raw)
            return [emit(entry, startsSegment: true)]
        }
        jumps += 1
        let newest = tracks.values.map(\.end).max() ?? state.end
        let waiting = Set(tracks.filter { $0.value.segment == state.segment && $0.value.end >= newest - activeWindow }.keys)
        pending = Pending(held: [entry], jumped: [track], waitingFor: waiting, firstRaw: raw, lastRaw: raw)
        return releaseIfDue()
    }

    /// Lets everything held go (the input ended).
    mutating func flush() -> [Output] {
        pending == nil ? [] : resolve()
    }

    private mutating func releaseIfDue() -> [Output] {
        guard let waiting = pending else { return [] }
        let everyone = waiting.waitingFor.isSubset(of: waiting.jumped)
        if everyone || waiting.lastRaw - waiting.firstRaw > holdSpan || waiting.held.count >= holdCount {
            return resolve()
        }
        return []
    }

    /// Fixes the pending segment's offset and lets its held items go.
    private mutating func resolve() -> [Output] {
        guard let waiting = pending else { return [] }
        pending = nil
        var offset = -Double.infinity
        var earliest = Double.infinity
        for track in waiting.jumped {
            let items = waiting.held.filter { $0.track == track }
            guard let first = items.first(where: { ($0.dts ?? $0.pts) != nil }) else { continue }
            let present = items.compactMap { $0.pts ?? $0.dts }.min() ?? (first.dts ?? first.pts)!
            earliest = min(earliest, present)
            if let state = tracks[track] {
                offset = max(offset, state.end - present, state.lastDTS + minimumStep - (first.dts ?? first.pts)!)
            }
        }
        if offset == -.infinity {
            // Only tracks new to the input: start them where the timeline ends.
            let end = tracks.values.map(\.end).max() ?? 0
            offset = earliest.isFinite ? end - earliest : offsets.last!
        }
        offsets.append(offset)
        let segment = offsets.count - 1
        var started: Set<Int> = []
        var outputs: [Output] = []
        for held in waiting.held {
            if var state = tracks[held.track] {
                if !started.contains(held.track) {
                    state.segment = segment
                    state.extra = 0
                    tracks[held.track] = state
                }
            } else if let raw = held.dts ?? held.pts {
                tracks[held.track] = Track(segment: segment, lastRaw: raw, end: -.infinity, lastDTS: -.infinity)
            }
            let first = started.insert(held.track).inserted
            outputs.append(emit(held, startsSegment: first))
        }
        return outputs
    }

    /// Moves `track` into the newest segment, shifted a little more if the segment would
    /// otherwise overlap what the track already played.
    private mutating func follow(track: Int, raw: Double, present: Double) {
        guard var state = tracks[track] else { return }
        let offset = offsets.last!
        state.segment = offsets.count - 1
        state.extra = max(0, state.end - (present + offset), state.lastDTS + minimumStep - (raw + offset))
        tracks[track] = state
    }

    /// Lets one item through with its track's offset, and notes where the track now is.
    private mutating func emit(_ held: Held, startsSegment: Bool) -> Output {
        let raw = held.dts ?? held.pts
        var state =
            tracks[held.track]
            ?? Track(
                segment: offsets.count - 1, lastRaw: raw ?? 0, end: -.infinity,
                lastDTS: -.infinity)
        let offset = offsets[state.segment] + state.extra
        if let raw {
            state.lastRaw = raw
            state.lastDTS = max(state.lastDTS, raw + offset)
            state.end = max(state.end, (held.pts ?? raw) + offset + max(held.duration, 0))
        }
        tracks[held.track] = state
        return Output(item: held.item, track: held.track, offset: offset, startsSegment: startsSegment)
    }
}
#endif
