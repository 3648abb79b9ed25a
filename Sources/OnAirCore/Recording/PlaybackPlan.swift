import Foundation

/// What `/list` and `/get` make of a recording's segments: spans of contiguous recording, and the
/// pieces of segments a requested span is stitched from. Pure: segments come from `SegmentIndex`.
package enum PlaybackPlan {
    /// A run of recording without a gap.
    public struct Span: Sendable, Equatable {
        /// Wall-clock start.
        public var start: Date
        /// Seconds.
        public var duration: Double
    }

    /// A piece of one segment: from `from` to `to` seconds after the segment's start.
    public struct Piece: Sendable, Equatable {
        /// The segment's file.
        public var path: String
        /// The segment's start.
        public var segmentStart: Date
        /// Seconds into the segment where the piece starts.
        public var from: Double
        /// Seconds into the segment where it ends.
        public var to: Double
    }

    /// Segments closer than this (seconds) count as back to back.
    public static let joinTolerance = 1.0

    /// A segment's end: its own duration after its start, or (before the journal) its last
    /// write, never past the next segment's start.
    static func end(of index: Int, in segments: [RecordedSegment]) -> Date {
        segments[index].end(next: index + 1 < segments.count ? segments[index + 1] : nil)
    }

    /// The runs of recording that overlap `start`…`end` (either open), clipped to them. Segments
    /// must be oldest first; only those overlapping the range are looked at.
    public static func spans(_ segments: [RecordedSegment], start: Date?, end: Date?) -> [Span] {
        var spans: [Span] = []
        let first = start.map { bound in firstIndex(segments) { $0.start >= bound } - 1 } ?? 0
        for index in max(0, first)..<segments.count {
            let segmentStart = segments[index].start
            if let end, segmentStart >= end { break }
            var from = segmentStart
            var to = self.end(of: index, in: segments)
            if let start { from = max(from, start) }
            if let end { to = min(to, end) }
            guard to > from else { continue }
            if let last = spans.last, index > 0, segments[index - 1].continues(into: segments[index]),
                from.timeIntervalSince(last.start.addingTimeInterval(last.duration)) <= joinTolerance
            {
                spans[spans.count - 1].duration = to.timeIntervalSince(last.start)
            } else {
                spans.append(Span(start: from, duration: to.timeIntervalSince(from)))
            }
        }
        return spans
    }

    /// The pieces that make `start`…`end`, in order; gaps between segments are left out.
    public static func pieces(_ segments: [RecordedSegment], start: Date, end: Date) -> [Piece] {
        var pieces: [Piece] = []
        let first = max(0, firstIndex(segments) { $0.start >= start } - 1)
        for index in first..<segments.count {
            let segment = segments[index]
            if segment.start >= end { break }
            let segmentEnd = self.end(of: index, in: segments)
            let from = max(segment.start, start), to = min(segmentEnd, end)
            guard to > from else { continue }
            pieces.append(
                Piece(
                    path: segment.path, segmentStart: segment.start, from: from.timeIntervalSince(segment.start),
                    to: to.timeIntervalSince(segment.start)))
        }
        return pieces
    }

    /// The first index whose segment satisfies `predicate` (which must be false then true along
    /// the array), or the count: a binary search, so listing an hour among months stays fast.
    static func firstIndex(_ segments: [RecordedSegment], where predicate: (RecordedSegment) -> Bool) -> Int {
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(segments[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
