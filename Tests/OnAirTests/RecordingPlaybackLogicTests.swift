#if os(Linux)
import Foundation
import OnAir
import OnAirServing
import Testing

/// Playback of recordings, the pure parts: queries, RFC 3339, listing spans, stitching pieces,
/// byte ranges; and the listing's speed over 10,000 segment files (measured, not asserted).
@Suite struct RecordingPlaybackLogicTests {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30T00:53:20Z

    @Test func rfc3339TimesAreReadWithEveryFieldChecked() throws {
        #expect(PlaybackQuery.parseRFC3339("2026-11-30T00:53:20Z") == Self.t0)
        #expect(PlaybackQuery.parseRFC3339("2026-11-30T01:53:20.5+01:00") == Self.t0.addingTimeInterval(0.5))
        #expect(PlaybackQuery.parseRFC3339("2026-11-30T01:53:20.5 01:00") == Self.t0.addingTimeInterval(0.5))
        #expect(PlaybackQuery.parseRFC3339("2026-11-29t19:53:20.000001-05:00")?.timeIntervalSince(Self.t0) ?? 9 < 2e-6)
        for bad in [
            "", "2026-11-29", "2026-11-29T01:33:20", "2026-13-29T01:33:20Z", "2026-02-30T01:33:20Z", "2026-11-29T24:00:00Z",
            "2026-11-29T01:33:20+25:00", "2026-11-29T01:33:20.Z", "2026-11-29T01:33:20Zjunk", "1969-12-31T23:59:59Z",
            "2026-11-29T01:33:20.1234567890123456789012345Z", "२०२६-11-29T01:33:20Z", "2026-11-29X01:33:20Z",
        ] {
            #expect(PlaybackQuery.parseRFC3339(bad) == nil, "\(bad)")
        }
        let formatted = PlaybackQuery.formatRFC3339(Self.t0.addingTimeInterval(0.25))
        #expect(formatted == "2026-11-30T00:53:20.250000Z")
        #expect(PlaybackQuery.parseRFC3339(formatted) == Self.t0.addingTimeInterval(0.25))
    }

    @Test func queriesAreCheckedBeforeAnythingIsRead() throws {
        let get = try PlaybackQuery.get(["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "60", "format": "mp4"])
        #expect(get.end == Self.t0.addingTimeInterval(60) && get.format == .mp4)
        #expect(try PlaybackQuery.get(["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "1.5"]).format == .fmp4)
        let refused: [[String: String]] = [
            [:], ["path": "live"], ["path": "live", "start": "x", "duration": "1"],
            ["path": "../etc", "start": "2026-11-30T00:53:20Z", "duration": "1"],
            ["path": "/live", "start": "2026-11-30T00:53:20Z", "duration": "1"],
            ["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "0"],
            ["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "nan"],
            ["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "100000"],
            ["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "1", "format": "avi"],
        ]
        for query in refused {
            #expect(throws: PlaybackQuery.Refusal.self, "\(query)") { try PlaybackQuery.get(query) }
        }
        #expect(throws: PlaybackQuery.Refusal.self) {
            try PlaybackQuery.list(["path": "live", "start": "2026-11-30T00:53:20Z", "end": "2026-11-30T00:53:19Z"])
        }
        #expect(try PlaybackQuery.list(["path": "live"]).start == nil)
        #expect(try PlaybackQuery.get(["path": "live", "start": "2026-11-30T00:53:20Z", "duration": "1", "format": "hls"]).format == .hls)
    }

    @Test func aSpansPlaylistIsVideoOnDemandWithADiscontinuityWhereTheGapWas() {
        let pieces = PlaybackPlan.pieces(Self.recording(), start: Self.t0.addingTimeInterval(150), end: Self.t0.addingTimeInterval(500))
        let back = PlaybackPlan.pieces(Self.recording(), start: Self.t0.addingTimeInterval(30), end: Self.t0.addingTimeInterval(100))
        #expect(SpanPlaylist.gapBefore(pieces) == [false, true])
        #expect(SpanPlaylist.gapBefore(back) == [false, false])
        #expect(SpanPlaylist.mediaID(SpanPlaylist.mediaName(id: "9f0a")) == "9f0a")
        for bad in ["9f0a", "9F0A.mp4", ".mp4", "0123456789abcdef0.mp4", "../9f.mp4", "9f0a.mp4.mp4", "9f0a.ts"] {
            #expect(SpanPlaylist.mediaID(bad) == nil, "\(bad)")
        }
        let fragments = [
            SpanPlaylist.Fragment(offset: 700, size: 1000, duration: 4, afterGap: false),
            SpanPlaylist.Fragment(offset: 1700, size: 500, duration: 4.5, afterGap: true),
        ]
        let text = SpanPlaylist.text(initSize: 700, fragments: fragments, uri: "get?x=1")
        #expect(
            text == """
                #EXTM3U
                #EXT-X-VERSION:7
                #EXT-X-TARGETDURATION:5
                #EXT-X-MEDIA-SEQUENCE:0
                #EXT-X-PLAYLIST-TYPE:VOD
                #EXT-X-INDEPENDENT-SEGMENTS
                #EXT-X-MAP:URI="get?x=1",BYTERANGE="700@0"
                #EXTINF:4.000000,
                #EXT-X-BYTERANGE:1000@700
                get?x=1
                #EXT-X-DISCONTINUITY
                #EXTINF:4.500000,
                #EXT-X-BYTERANGE:500@1700
                get?x=1
                #EXT-X-ENDLIST

                """)
    }

    /// Segments of 60 s back to back, a 5-minute gap after the third.
    static func recording() -> [RecordedSegment] {
        let starts = [0.0, 60, 120, 480, 540]
        return starts.enumerated().map { index, start in
            let begin = t0.addingTimeInterval(start)
            return RecordedSegment(path: "s\(index)", start: begin, size: 1000, modified: begin.addingTimeInterval(60.2))
        }
    }

    @Test func listingJoinsBackToBackSegmentsAndShowsTheGap() {
        let spans = PlaybackPlan.spans(Self.recording(), start: nil, end: nil)
        #expect(spans.count == 2)
        #expect(spans[0].start == Self.t0 && abs(spans[0].duration - 180.2) < 1e-6)
        #expect(spans[1].start == Self.t0.addingTimeInterval(480) && abs(spans[1].duration - 120.2) < 1e-6)
        let clipped = PlaybackPlan.spans(Self.recording(), start: Self.t0.addingTimeInterval(90), end: Self.t0.addingTimeInterval(500))
        #expect(clipped.map(\.start) == [Self.t0.addingTimeInterval(90), Self.t0.addingTimeInterval(480)])
        #expect(abs(clipped[0].duration - 90.2) < 1e-6 && abs(clipped[1].duration - 20) < 1e-6)
        #expect(PlaybackPlan.spans(Self.recording(), start: Self.t0.addingTimeInterval(300), end: Self.t0.addingTimeInterval(400)).isEmpty)
    }

    @Test func aSpanAcrossTheGapIsStitchedFromPiecesWithoutIt() {
        let pieces = PlaybackPlan.pieces(Self.recording(), start: Self.t0.addingTimeInterval(150), end: Self.t0.addingTimeInterval(500))
        #expect(pieces.map(\.path) == ["s2", "s3"])
        #expect(pieces[0].from == 30 && abs(pieces[0].to - 60.2) < 1e-6)
        #expect(pieces[1].from == 0 && pieces[1].to == 20)
        #expect(PlaybackPlan.pieces(Self.recording(), start: Self.t0.addingTimeInterval(200), end: Self.t0.addingTimeInterval(400)).isEmpty)
    }

    @Test func byteRangesAreBoundedAndClamped() {
        #expect(ByteRange.parse(nil, size: 1000) == .whole)
        #expect(ByteRange.parse("bytes=100-199", size: 1000) == .part(lower: 100, upper: 199))
        #expect(ByteRange.parse("bytes=900-", size: 1000) == .part(lower: 900, upper: 999))
        #expect(ByteRange.parse("bytes=-100", size: 1000) == .part(lower: 900, upper: 999))
        #expect(ByteRange.parse("bytes=990-5000", size: 1000) == .part(lower: 990, upper: 999))
        #expect(ByteRange.parse("bytes=0-", size: 100 << 20, maximumLength: 1 << 20) == .part(lower: 0, upper: (1 << 20) - 1))
        #expect(ByteRange.parse("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 1000) == .unsatisfiable)
        for ignored in ["bytes=5-1", "bytes=a-b", "items=0-1", "bytes=0-1,5-6", "bytes=", "bytes=-", "bytes=99999999999999999999-"] {
            #expect(ByteRange.parse(ignored, size: 1000) == .whole, "\(ignored)")
        }
    }

    @Test func listingAnHourAmongTenThousandSegmentFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let template = try RecordPathTemplate(root + "/%path/%Y-%m-%d/%H-%M-%S-%f", timeZone: TimeZone(identifier: "UTC")!)
        // 10,000 one-minute segments: about a week, in day folders, a month ago (their files,
        // written now, end no later than the next one's start).
        let base = Date().addingTimeInterval(-30 * 86_400)
        for index in 0..<10_000 {
            let path = template.path(pathName: "live", start: base.addingTimeInterval(Double(index) * 60)) + ".mp4"
            let folder = (path as NSString).deletingLastPathComponent
            if !FileManager.default.fileExists(atPath: folder) {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
        }
        let index = SegmentIndex(template: template, pathName: "live", extensions: ["mp4"])
        let begun = ContinuousClock.now
        let from = base.addingTimeInterval(3 * 86_400 + 30), to = from.addingTimeInterval(3600)
        let segments = index.scan(from: from, to: to)
        let spans = PlaybackPlan.spans(segments, start: from, end: to)
        let elapsed = ContinuousClock.now - begun
        #expect(index.names().count == 10_000)
        #expect(segments.count == 62)  // the one before, 60, the one after
        #expect(spans.count == 1 && abs((spans.first?.duration ?? 0) - 3600) < 1e-6)
        print("listing one hour among 10,000 segment files: \(elapsed) (scan by names and stat, no file opened)")
    }
}
#endif
