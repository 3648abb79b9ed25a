#if os(Linux)
import Foundation

/// A live HLS media playlist of fragmented MP4 segments (RFC 8216bis): a sliding window of
/// segments, each after the `EXT-X-MAP` (init section) it needs, with `EXT-X-DISCONTINUITY`
/// where an encode restarted. A value type that renders its text, so the writer's rules are
/// tested without media. Low-Latency HLS adds partial segments to the same model.
package struct HLSMediaPlaylist: Sendable, Equatable {
    /// One finished segment.
    package struct Segment: Sendable, Equatable {
        /// Its URI, relative to the playlist (`segment_12.m4s`).
        package var uri: String
        /// Its duration in seconds.
        package var duration: Double
        /// The init section its fragments need (`init.mp4`).
        package var map: String
        /// Whether an encode restart comes before it (other parameters, a new init section).
        package var discontinuity = false

        /// A segment at `uri` of `duration` seconds after the init section `map`.
        package init(uri: String, duration: Double, map: String, discontinuity: Bool = false) {
            self.uri = uri
            self.duration = duration
            self.map = map
            self.discontinuity = discontinuity
        }
    }

    /// The target duration asked for (seconds); `EXT-X-TARGETDURATION` is at least its whole
    /// seconds and at least every listed segment's rounded duration.
    package var targetDuration: Double
    /// Segments kept in the window (0: all).
    package var windowSize: Int
    /// The media sequence number of the first segment listed.
    package private(set) var mediaSequence = 0
    /// Discontinuities that have left the window (`EXT-X-DISCONTINUITY-SEQUENCE`).
    package private(set) var discontinuitySequence = 0
    /// The segments listed, oldest first.
    package private(set) var segments: [Segment] = []
    /// Whether the stream has ended (`EXT-X-ENDLIST`).
    package var ended = false

    /// An empty playlist of segments of about `targetDuration` seconds, keeping `windowSize`.
    package init(targetDuration: Double, windowSize: Int) {
        self.targetDuration = targetDuration
        self.windowSize = windowSize
    }

    /// Adds a finished segment; returns the segments that left the window (their files may go).
    @discardableResult
    package mutating func append(_ segment: Segment) -> [Segment] {
        segments.append(segment)
        let gone = Self.trim(&segments, to: windowSize)
        mediaSequence += gone.count
        discontinuitySequence += gone.filter(\.discontinuity).count
        return gone
    }

    /// Removes the oldest of `segments` beyond `windowSize` (0: none) and returns them.
    package static func trim<Segment>(_ segments: inout [Segment], to windowSize: Int) -> [Segment] {
        guard windowSize > 0, segments.count > windowSize else { return [] }
        let gone = Array(segments.prefix(segments.count - windowSize))
        segments.removeFirst(gone.count)
        return gone
    }

    /// The `EXT-X-TARGETDURATION` value: whole seconds no segment exceeds once rounded.
    package var targetDurationTag: Int {
        max(Int(targetDuration.rounded(.up)), segments.map { Int($0.duration.rounded()) }.max() ?? 1, 1)
    }

    /// The playlist's text. Version 7: `EXT-X-MAP` in a live playlist of fMP4 segments.
    package var text: String {
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDurationTag)",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
        ]
        if discontinuitySequence > 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        lines.append("#EXT-X-INDEPENDENT-SEGMENTS")
        var map: String?
        for segment in segments {
            if segment.discontinuity && map != nil { lines.append("#EXT-X-DISCONTINUITY") }
            if segment.map != map {
                lines.append("#EXT-X-MAP:URI=\"\(segment.map)\"")
                map = segment.map
            }
            lines.append("#EXTINF:\(String(format: "%.6f", segment.duration)),")
            lines.append(segment.uri)
        }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }
}
#endif
