import Foundation

/// An HLS playlist of a recorded span (`/get?…&format=hls`): video on demand, its media items byte
/// ranges of one fragmented MP4 (the init section first, then one fragment per item, each from a
/// keyframe), `#EXT-X-DISCONTINUITY` before the first fragment after a skipped gap. Pure: the
/// fragments come from `RecordingSpanWriter.writeFragments`.
package enum SpanPlaylist {
    /// Where one fragment lies in the file, how long it plays and whether a gap was skipped before it.
    public struct Fragment: Sendable, Equatable {
        /// Byte offset in the file.
        public var offset: Int64
        /// Bytes.
        public var size: Int64
        /// Seconds.
        public var duration: Double
        /// True when recording stopped for a while before this fragment (the gap is left out).
        public var afterGap: Bool

        /// A fragment at `offset` of `size` bytes playing `duration` seconds.
        public init(offset: Int64, size: Int64, duration: Double, afterGap: Bool) {
            self.offset = offset
            self.size = size
            self.duration = duration
            self.afterGap = afterGap
        }
    }

    /// Fragments are cut at the first keyframe at least this long (seconds) after the previous cut.
    public static let fragmentDuration = 4.0

    /// The most items a playlist lists (a day of 4 s fragments is 21,600; more means a span
    /// broken by very many gaps, answered 413: ask for a shorter one).
    public static let maximumFragments = 30_000

    /// The name of a built span's file under `/playback/` (its id: 1 to 16 lowercase hex digits).
    public static func mediaName(id: String) -> String { id + ".mp4" }

    /// The id in a `/playback/` file name, or nil for anything but `mediaName(id:)` of a valid id.
    public static func mediaID(_ name: String) -> String? {
        guard name.utf8.count <= 20, name.hasSuffix(".mp4") else { return nil }
        let id = String(name.dropLast(4))
        guard (1...16).contains(id.utf8.count), id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        return id
    }

    /// The playlist: `uri` (the fragmented MP4, with the query it needs) for the init section's
    /// `initSize` bytes and for every fragment.
    /// `startOffset`: seconds from the first frame to the span's asked start (its fragments begin at
    /// the keyframe before it), told to players as `EXT-X-START:TIME-OFFSET=…,PRECISE=YES`.
    public static func text(initSize: Int64, fragments: [Fragment], uri: String, startOffset: Double = 0) -> String {
        let longest = fragments.map(\.duration).max() ?? 0
        var lines = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(max(1, Int(longest.rounded(.up))))",
            "#EXT-X-MEDIA-SEQUENCE:0", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS",
            "#EXT-X-MAP:URI=\"\(uri)\",BYTERANGE=\"\(initSize)@0\"",
        ]
        if startOffset > 0 { lines.insert(String(format: "#EXT-X-START:TIME-OFFSET=%.6f,PRECISE=YES", startOffset), at: 6) }
        lines.reserveCapacity(lines.count + fragments.count * 4 + 1)
        for fragment in fragments {
            if fragment.afterGap { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append(String(format: "#EXTINF:%.6f,", fragment.duration))
            lines.append("#EXT-X-BYTERANGE:\(fragment.size)@\(fragment.offset)")
            lines.append(uri)
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// For each piece of a span, whether a gap longer than `PlaybackPlan.joinTolerance` lies
    /// between it and the piece before (never for the first).
    public static func gapBefore(_ pieces: [PlaybackPlan.Piece]) -> [Bool] {
        pieces.indices.map { index in
            guard index > 0 else { return false }
            let previous = pieces[index - 1], piece = pieces[index]
            let previousEnd = previous.segmentStart.addingTimeInterval(previous.to)
            return piece.segmentStart.addingTimeInterval(piece.from).timeIntervalSince(previousEnd) > PlaybackPlan.joinTolerance
        }
    }
}
