#if os(Linux)
import Foundation

/// A Low-Latency HLS media playlist (draft-pantos-hls-rfc8216bis): finished segments and the
/// partial segments (parts) of the recent ones and of the segment being written, the server's
/// controls (`EXT-X-SERVER-CONTROL`, `EXT-X-PART-INF`), program dates, the preload hint of the next
/// part, delta updates (`EXT-X-SKIP`) and the verdict on a blocking reload (`_HLS_msn`,
/// `_HLS_part`). A value type with no clock and no I/O: the writer feeds it, the server renders it.
package struct LowLatencyHLSPlaylist: Sendable, Equatable {
    /// One partial segment.
    package struct Part: Sendable, Equatable {
        /// Its URI, relative to the playlist (`part_12_3.m4s`).
        package var uri: String
        /// Its duration in seconds.
        package var duration: Double
        /// Whether it starts with a keyframe (`INDEPENDENT=YES`).
        package var independent: Bool

        /// A part at `uri` of `duration` seconds.
        package init(uri: String, duration: Double, independent: Bool) {
            self.uri = uri
            self.duration = duration
            self.independent = independent
        }
    }

    /// A segment, finished (`uri` set) or being written (its parts so far).
    package struct Segment: Sendable, Equatable {
        /// Its URI once finished (`segment_12.m4s`), nil while it is written.
        package var uri: String?
        /// Its duration in seconds once finished, else the sum of its parts.
        package var duration: Double
        /// The init section its fragments need.
        package var map: String
        /// Whether an encode restart comes before it.
        package var discontinuity: Bool
        /// The wall-clock time of its first sample (`EXT-X-PROGRAM-DATE-TIME`), when known.
        package var programDate: Date?
        /// Its parts, in order.
        package var parts: [Part]
    }

    /// What the server does with a playlist request.
    package enum Reload: Sendable, Equatable {
        /// Answer now.
        case ready
        /// Hold the request until the playlist holds what it asks for (at most `holdLimit` seconds).
        case hold
        /// Answer 400: malformed or too far ahead; the reason.
        case badRequest(String)
    }

    /// The segment duration asked for (seconds).
    package var targetDuration: Double
    /// The part duration asked for (seconds).
    package var partTarget: Double
    /// Finished segments kept listed (at least enough for `CAN-SKIP-UNTIL`).
    package let windowSize: Int
    /// The media sequence number of the first segment listed.
    package private(set) var mediaSequence = 0
    /// Discontinuities that have left the window.
    package private(set) var discontinuitySequence = 0
    /// Finished segments listed, oldest first.
    package private(set) var segments: [Segment] = []
    /// The segment being written (its parts so far), if any.
    package private(set) var current: Segment?
    /// The URI of the next part (`EXT-X-PRELOAD-HINT`), when one is coming.
    package private(set) var preloadHint: String?
    /// Whether the stream has ended (`EXT-X-ENDLIST`).
    package var ended = false {
        didSet { if ended { preloadHint = nil } }
    }

    /// An empty playlist of segments of about `targetDuration` seconds in parts of about
    /// `partTarget`, keeping `windowSize` segments and never fewer than `CAN-SKIP-UNTIL` needs.
    package init(targetDuration: Double, partTarget: Double, windowSize: Int) {
        self.targetDuration = targetDuration
        self.partTarget = partTarget
        self.windowSize = max(windowSize, Self.segmentsForSkip)
    }

    /// The fewest segments kept: six (each at least a target duration) cover `CAN-SKIP-UNTIL`, four
    /// more are what a delta update leaves out.
    package static let segmentsForSkip = 10

    /// The media sequence number of the segment being written (or of the next one).
    package var nextSequence: Int { mediaSequence + segments.count }

    /// Adds a part to the segment being written (starting it with `map`, `discontinuity` and
    /// `programDate` when none is); `next` is the URI of the part after it (the preload hint).
    package mutating func append(part: Part, map: String, discontinuity: Bool, programDate: Date?, next: String?) {
        if current == nil {
            current = Segment(
                uri: nil, duration: 0, map: map, discontinuity: discontinuity, programDate: programDate, parts: [])
        }
        current?.parts.append(part)
        current?.duration += part.duration
        preloadHint = next
    }

    /// Finishes the segment being written as `uri` of `duration` seconds; `next` is the URI of the
    /// next segment's first part. Returns the segments that left the window.
    @discardableResult
    package mutating func finishSegment(uri: String, duration: Double, next: String?) -> [Segment] {
        guard var segment = current else { return [] }
        segment.uri = uri
        segment.duration = duration
        segments.append(segment)
        current = nil
        preloadHint = next
        let gone = HLSMediaPlaylist.trim(&segments, to: windowSize)
        mediaSequence += gone.count
        discontinuitySequence += gone.filter(\.discontinuity).count
        return gone
    }

    /// `EXT-X-TARGETDURATION`: whole seconds no segment exceeds once rounded.
    package var targetDurationTag: Int {
        max(Int(targetDuration.rounded(.up)), segments.map { Int($0.duration.rounded()) }.max() ?? 1, 1)
    }

    /// `PART-TARGET`: the part duration asked for, or the longest part listed if one is longer.
    package var partTargetTag: Double {
        let parts = (segments + (current.map { [$0] } ?? [])).flatMap(\.parts)
        return max(partTarget, parts.map(\.duration).max() ?? 0)
    }

    /// `CAN-SKIP-UNTIL`: six target durations.
    package var skipUntil: Double { Double(6 * targetDurationTag) }

    /// `PART-HOLD-BACK`: three part targets (the specification's minimum recommendation).
    package var partHoldBack: Double { 3 * partTargetTag }

    /// How long a blocking reload may be held (three target durations), in seconds.
    package var holdLimit: Double { Double(3 * targetDurationTag) }

    /// Whether the playlist holds segment `msn` (finished), or its part `part` when given.
    package func contains(msn: Int, part: Int?) -> Bool {
        if ended || msn < nextSequence { return true }
        guard msn == nextSequence, let part, let current else { return false }
        return current.parts.count > part
    }

    /// Whether `uri` names a part or segment listed now.
    package func lists(_ uri: String) -> Bool {
        (segments + (current.map { [$0] } ?? [])).contains { $0.uri == uri || $0.parts.contains { $0.uri == uri } }
    }

    /// The verdict on a request with `_HLS_msn` = `msn` and `_HLS_part` = `part` (nil: absent):
    /// ready when it holds that segment or part, held when they are coming, 400 when malformed or
    /// further ahead than the specification allows: a segment more than two past the last, or a
    /// part more than the Advance Part Limit past the last part (three part targets' worth, at
    /// least three parts), counting the parts of a segment to come as a segment's worth.
    package func reload(msn: Int?, part: Int?) -> Reload {
        guard let msn else { return part == nil ? .ready : .badRequest("_HLS_part needs _HLS_msn") }
        guard msn >= 0, (part ?? 0) >= 0 else { return .badRequest("_HLS_msn and _HLS_part are not negative") }
        if contains(msn: msn, part: part) { return .ready }
        let last = lastPart
        if msn > last.msn + 2 { return .badRequest("_HLS_msn \(msn) is more than two segments past the last (\(last.msn))") }
        if let part {
            let perSegment = max(1, Int((targetDuration / partTarget).rounded(.up)))
            let ahead = (msn - last.msn) * perSegment + part - last.part
            let limit = partTarget < 1 ? Int((3 / partTarget).rounded(.down)) : 3
            if ahead > limit {
                return .badRequest("_HLS_part \(part) of segment \(msn) is more than \(limit) parts past the last")
            }
        }
        return .hold
    }

    /// The media sequence number and index of the last part listed (`EXT-X-RENDITION-REPORT`'s
    /// `LAST-MSN` and `LAST-PART`); part -1 of the next segment before any.
    package var lastPart: (msn: Int, part: Int) {
        if let current, !current.parts.isEmpty { return (nextSequence, current.parts.count - 1) }
        guard let last = segments.last else { return (nextSequence, -1) }
        return (nextSequence - 1, last.parts.count - 1)
    }

    /// An `EXT-X-RENDITION-REPORT` of another encode's playlist at `uri`, as `playlist` stands.
    package struct RenditionReport: Sendable, Equatable {
        /// The other playlist's URI, relative to this one.
        package var uri: String
        /// Its `LAST-MSN` and `LAST-PART`.
        package var lastMSN: Int, lastPart: Int

        /// The report of `playlist` at `uri`.
        package init(uri: String, playlist: LowLatencyHLSPlaylist) {
            self.uri = uri
            (lastMSN, lastPart) = playlist.lastPart
        }
    }

    /// The playlist's text; `skip` gives a delta update (`_HLS_skip=YES`): the segments older than
    /// `CAN-SKIP-UNTIL` before the end replaced by `EXT-X-SKIP`. `locate` turns each URI of a
    /// segment, part, init section or preload hint into what is written (a folder before it, a
    /// token after it); `reports` are the other encodes' rendition reports, their URIs as given.
    package func text(
        skip: Bool = false, reports: [RenditionReport] = [], locate: (String) -> String = { $0 }
    ) -> String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:\(targetDurationTag)",
            "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=\(Self.decimal(skipUntil)),"
                + "PART-HOLD-BACK=\(Self.decimal(partHoldBack))",
            "#EXT-X-PART-INF:PART-TARGET=\(Self.decimal(partTargetTag))",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
        ]
        if discontinuitySequence > 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        lines.append("#EXT-X-INDEPENDENT-SEGMENTS")
        let skipped = skip ? skippable : 0
        if skipped > 0 { lines.append("#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)") }
        let listed = Array(segments.dropFirst(skipped)) + (current.map { [$0] } ?? [])
        // Parts stay listed for the segments ending within three target durations of the end.
        let total = listed.map(\.duration).reduce(0, +)
        var elapsed = 0.0
        var map: String?
        for (index, segment) in listed.enumerated() {
            if segment.discontinuity && (map != nil || index + skipped > 0) { lines.append("#EXT-X-DISCONTINUITY") }
            if segment.map != map {
                lines.append("#EXT-X-MAP:URI=\"\(locate(segment.map))\"")
                map = segment.map
            }
            if let date = segment.programDate { lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.programDate(date))") }
            elapsed += segment.duration
            if segment.uri == nil || total - elapsed < Double(3 * targetDurationTag) {
                for part in segment.parts {
                    lines.append(
                        "#EXT-X-PART:DURATION=\(Self.decimal(part.duration)),URI=\"\(locate(part.uri))\""
                            + (part.independent ? ",INDEPENDENT=YES" : ""))
                }
            }
            if let uri = segment.uri {
                lines.append("#EXTINF:\(String(format: "%.6f", segment.duration)),")
                lines.append(locate(uri))
            }
        }
        if let preloadHint { lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(locate(preloadHint))\"") }
        for report in reports {
            lines.append("#EXT-X-RENDITION-REPORT:URI=\"\(report.uri)\",LAST-MSN=\(report.lastMSN),LAST-PART=\(report.lastPart)")
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Finished segments a delta update leaves out: those ending more than `CAN-SKIP-UNTIL`
    /// seconds before the end of the playlist.
    package var skippable: Int {
        var remaining = segments.map(\.duration).reduce(0, +) + (current?.duration ?? 0)
        var count = 0
        for segment in segments {
            remaining -= segment.duration
            guard remaining >= skipUntil else { break }
            count += 1
        }
        return count
    }

    /// The name of part `part` of segment `segment` (`part_12_3.m4s`), as the writer stores it.
    package static func partName(segment: Int, part: Int) -> String { "part_\(segment)_\(part).m4s" }

    /// The segment and part numbers a part's name gives; nil for any other name.
    package static func partNumbers(_ name: String) -> (segment: Int, part: Int)? {
        guard name.hasPrefix("part_"), name.hasSuffix(".m4s") else { return nil }
        let fields = name.dropFirst(5).dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard fields.count == 2, fields.allSatisfy({ (1...12).contains($0.count) && $0.allSatisfy { $0 >= "0" && $0 <= "9" } }),
            let segment = Int(fields[0]), let part = Int(fields[1]), segment >= 0, part >= 0
        else { return nil }
        return (segment, part)
    }

    private static func decimal(_ value: Double) -> String { String(format: "%.3f", value) }

    /// ISO 8601 with milliseconds and the zone (`2026-12-05T09:15:00.200Z`).
    package static func programDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
#endif
