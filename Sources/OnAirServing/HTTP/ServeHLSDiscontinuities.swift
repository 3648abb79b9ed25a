#if os(Linux)
import Foundation
import OnAirCore

/// `#EXT-X-DISCONTINUITY` in the live HLS playlist after an encode restart (a reload's new size or
/// codec settings). libavformat's hls muxer writes the playlist and cannot be told mid-stream that
/// its input changed, so the server adds the tags as it serves `/live.m3u8`: before the first
/// segment begun after the restart, and `#EXT-X-DISCONTINUITY-SEQUENCE` counting the tagged
/// segments that have left the list (RFC 8216 6.2.2), so a player reloading it numbers them alike.
package final class ServeHLSDiscontinuities: Sendable {
    private struct State {
        /// Numbers of the segments (`segment_N.ts`) a discontinuity comes before, ascending.
        var before: [Int] = []
        /// Tagged segments that have left the playlist.
        var gone = 0
    }

    private let state = Locked(State())

    /// None yet.
    package init() {}

    /// Segment `number` is the first of a restarted encode: a discontinuity comes before it.
    package func mark(before number: Int) {
        state.withLock { state in
            if state.before.last.map({ $0 < number }) ?? true { state.before.append(number) }
        }
    }

    /// `playlist` (as the muxer wrote it) with the tags added; unchanged while there was no restart.
    package func playlist(_ playlist: [UInt8]) -> [UInt8] {
        state.withLock { state in
            guard !state.before.isEmpty || state.gone > 0 else { return playlist }
            var lines = String(decoding: playlist, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let numbers = lines.compactMap(Self.segmentNumber)
            // Segments below the first listed are gone for good (the muxer numbers them upwards).
            if let first = numbers.first {
                let left = state.before.prefix { $0 < first }.count
                state.gone += left
                state.before.removeFirst(left)
            }
            var index = lines.count - 1
            while index >= 0 {
                if let number = Self.segmentNumber(lines[index]), state.before.contains(number) {
                    // The tag goes before the segment's own tags (its #EXTINF), after the one before it.
                    var start = index
                    while start > 0, lines[start - 1].hasPrefix("#EXTINF") || lines[start - 1].hasPrefix("#EXT-X-PROGRAM-DATE-TIME") {
                        start -= 1
                    }
                    if start == 0 || lines[start - 1] != "#EXT-X-DISCONTINUITY" { lines.insert("#EXT-X-DISCONTINUITY", at: start) }
                }
                index -= 1
            }
            if state.gone > 0, let sequence = lines.firstIndex(where: { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }),
                !lines.contains(where: { $0.hasPrefix("#EXT-X-DISCONTINUITY-SEQUENCE:") })
            {
                lines.insert("#EXT-X-DISCONTINUITY-SEQUENCE:\(state.gone)", at: sequence + 1)
            }
            return Array(lines.joined(separator: "\n").utf8)
        }
    }

    /// N of a URI line `segment_N.ts` (as the muxer names them), else nil.
    static func segmentNumber(_ line: String) -> Int? {
        ServeServer.isSegmentName(line) && line.hasSuffix(".ts") ? Int(line.dropFirst("segment_".count).dropLast(".ts".count)) : nil
    }

    /// The segment numbers `playlist` lists (complete segments: the muxer lists one once it is cut).
    static func listedSegments(playlist: String) -> [Int] {
        let text = (try? String(contentsOfFile: playlist, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { segmentNumber(String($0)) }
    }
}

/// The live HLS sink with the encode restarts found in its segments. libavformat's hls muxer cuts
/// on its own schedule and holds packets in its interleaving queue, so when the video's format
/// description changes (a restarted encode's first keyframe) which segment it lands in is not
/// known yet. The sink remembers the parameter sets that changed, and at later keyframes looks in
/// the segments the playlist lists since the change: the first that holds the new parameter sets
/// (Annex-B, in band before every keyframe) and none of the old is the first of the new encode,
/// and gets the tag. A change in the middle of a segment leaves that segment untagged (its own new
/// parameter sets are in band); the next, all new, is tagged.
package final class ServeHLSSink: PacketSink {
    /// The hls muxer's.
    package var destination: String { inner.destination }
    private let inner: any PacketSink
    private let playlist: String
    private let discontinuities: ServeHLSDiscontinuities
    private var video: FormatDescription?
    /// A restart whose first segment is not found yet: segments above `judged` are looked at.
    private struct Pending {
        var judged: Int, looked = 0
        let old: [[UInt8]], new: [[UInt8]]
    }
    private var pending: [Pending] = []
    /// Segments looked at for one restart before it is given up (its parameter sets never seen).
    static let lookAhead = 8

    /// Wraps `inner`, which writes `playlist` and its segments next to it.
    package init(_ inner: any PacketSink, playlist: String, discontinuities: ServeHLSDiscontinuities) {
        self.inner = inner
        self.playlist = playlist
        self.discontinuities = discontinuities
    }

    /// Notes a restart at a changed video format description, hands the packet on, and at a
    /// keyframe looks for the first segment of a noted restart.
    package func write(_ packet: EncodedPacket) throws {
        if packet.mediaType == .video, let description = packet.formatDescription {
            if let video, video != description {
                let (old, new) = (Self.parameterSets(video), Self.parameterSets(description))
                pending.append(
                    Pending(
                        judged: ServeHLSDiscontinuities.listedSegments(playlist: playlist).max() ?? -1,
                        old: old.filter { !new.contains($0) }, new: new.filter { !old.contains($0) }))
            }
            video = description
        }
        try inner.write(packet)
        if !pending.isEmpty, packet.mediaType == .video, packet.isKeyframe { findFirstSegments() }
    }

    /// Finishes the muxer.
    package func finish() throws { try inner.finish() }

    private func findFirstSegments() {
        let listed = ServeHLSDiscontinuities.listedSegments(playlist: playlist).sorted()
        let directory = (playlist as NSString).deletingLastPathComponent
        while var restart = pending.first {
            var found: Int?
            for number in listed where number > restart.judged {
                let path = (directory as NSString).appendingPathComponent("segment_\(number).ts")
                guard let bytes = FileManager.default.contents(atPath: path).map([UInt8].init) else { break }
                restart.judged = number
                restart.looked += 1
                if Self.holdsAny(restart.new, in: bytes) && !Self.holdsAny(restart.old, in: bytes) {
                    found = number
                    break
                }
            }
            if let found {
                discontinuities.mark(before: found)
            } else if restart.looked < Self.lookAhead {
                pending[0] = restart
                return
            }
            pending.removeFirst()
        }
    }

    /// Each parameter set of `description` as it stands in band: a 3-byte start code and the NAL unit.
    static func parameterSets(_ description: FormatDescription) -> [[UInt8]] {
        (description.sps + description.pps).map { [0, 0, 1] + $0 }
    }

    /// Whether any of `patterns` occurs in `bytes`.
    static func holdsAny(_ patterns: [[UInt8]], in bytes: [UInt8]) -> Bool {
        patterns.contains { pattern in
            guard let first = pattern.first, pattern.count <= bytes.count else { return false }
            var index = 0
            while let at = bytes[index...].firstIndex(of: first) {
                if at + pattern.count > bytes.count { return false }
                if bytes[at..<at + pattern.count].elementsEqual(pattern) { return true }
                index = at + 1
            }
            return false
        }
    }
}
#endif
