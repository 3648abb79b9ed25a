#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// `onair serve --record-path …`: MediaMTX's `/list` and `/get` over the recording while it goes
/// on, with a gap made by deleting a segment: the listing shows it, a span across it is stitched
/// without it, `format=mp4` answers Range with 206, bad queries are refused.
@Suite struct RecordingPlaybackTests {
    @Test func listAndGetAcrossSegmentsAndAGap() throws {
        let dir = try Tools.temporaryDirectory("playback")
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = dir.path + "/rec/%path/%Y-%m-%d_%H-%M-%S-%f"
        let server = try ServeTestServer(
            directory: dir, duration: 40, arguments: ["--record-path", template, "--record-segment-duration", "2s"])
        defer { _ = server.finish(timeout: 0) }
        // Four finished segments (the log says each one).
        #expect(waitUntil(timeout: 25) { server.process.stderr.components(separatedBy: "recording: wrote").count > 4 })
        let index = SegmentIndex(template: try RecordPathTemplate(template), pathName: "live")
        let segments = index.scan()
        try #require(segments.count >= 5, "\(segments.map(\.path))")
        // The second segment goes: a gap of ~2 s.
        try FileManager.default.removeItem(atPath: segments[1].path)

        let list = try server.get("/list?path=live")
        #expect(list.status == 200)
        let entries = try #require(try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]])
        #expect(entries.count == 2, "\(String(decoding: list.body, as: UTF8.self))")
        let firstStart = try #require(PlaybackQuery.parseRFC3339(entries.first?["start"] as? String ?? ""))
        #expect(abs(firstStart.timeIntervalSince(segments[0].start)) < 1e-5)
        #expect(abs((entries.first?["duration"] as? Double ?? 0) - segments[1].start.timeIntervalSince(segments[0].start)) < 0.6)
        let url = entries.first?["url"] as? String
        #expect(url?.hasPrefix(server.url("/get?path=live&start=")) == true, "\(url ?? "no url")")

        // A span from 1 s into the first segment to 1 s into the fourth: 1 + 2 + 1 s recorded, the gap skipped.
        let start = segments[0].start.addingTimeInterval(1)
        let asked = segments[3].start.addingTimeInterval(1).timeIntervalSince(start)
        let query = "/get?path=live&start=\(PlaybackQuery.formatRFC3339(start))&duration=\(asked)"
        let fmp4 = dir.appendingPathComponent("span.mp4").path
        let fetched = try server.get(query)
        #expect(fetched.status == 200)
        try fetched.body.write(to: URL(fileURLWithPath: fmp4))
        #expect(try RecordCommandTests.decodesCleanly(fmp4).isEmpty)
        let packets = try SegmentedRecordingTests.videoPackets(fmp4).sorted { $0.pts < $1.pts }
        #expect(packets.first?.key == true)
        // Continuous: no hole longer than a frame (15 fps) where the gap was.
        let holes = zip(packets, packets.dropFirst()).map { $1.pts - $0.pts }.filter { $0 > 1.5 / 15 }
        #expect(holes.isEmpty, "\(holes)")
        // The span asked, less the gap, plus at most the GOP (2 s) before its start.
        let played = (packets.last.map { $0.pts + $0.duration } ?? 0) - (packets.first?.pts ?? 0)
        let recorded = asked - segments[2].start.timeIntervalSince(segments[1].start)
        #expect(played >= recorded - 0.2 && played <= recorded + 2.1, "played \(played) s of \(recorded) s recorded")

        // The same span as a regular MP4: whole, then a range of it.
        let whole = try server.get(query + "&format=mp4")
        #expect(whole.status == 200)
        let mp4 = dir.appendingPathComponent("span-regular.mp4").path
        try whole.body.write(to: URL(fileURLWithPath: mp4))
        #expect(try RecordCommandTests.decodesCleanly(mp4).isEmpty)
        let part = try Tools.run(
            "curl",
            [
                "-s", "-D", "-", "-o", dir.appendingPathComponent("part").path, "-H", "Range: bytes=100-1099",
                server.url(query + "&format=mp4"),
            ])
        #expect(part.stdoutText.hasPrefix("HTTP/1.1 206"), "\(part.stdoutText)")
        #expect(part.stdoutText.contains("Content-Range: bytes 100-1099/\(whole.body.count)"))
        let partBytes = try Data(contentsOf: dir.appendingPathComponent("part"))
        #expect(partBytes == whole.body[100..<1100])

        // The span from the first segment's start (a keyframe) across a boundary and the gap as HLS:
        // a VOD playlist that ffmpeg decodes, a discontinuity where the gap was, the span asked less
        // the gap within a frame (15 fps).
        let hlsEnd = segments[3].start.addingTimeInterval(1)
        let hlsQuery =
            "/get?path=live&start=\(PlaybackQuery.formatRFC3339(segments[0].start))"
            + "&duration=\(hlsEnd.timeIntervalSince(segments[0].start))&format=hls"
        let playlist = try server.get(hlsQuery)
        #expect(playlist.status == 200)
        let playlistText = String(decoding: playlist.body, as: UTF8.self)
        #expect(playlistText.contains("#EXT-X-PLAYLIST-TYPE:VOD") && playlistText.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlistText)")
        #expect(playlistText.components(separatedBy: "#EXT-X-DISCONTINUITY").count == 2, "\(playlistText)")
        #expect(try RecordCommandTests.decodesCleanly(server.url(hlsQuery)).isEmpty)
        let hlsPackets = try SegmentedRecordingTests.videoPackets(server.url(hlsQuery)).sorted { $0.pts < $1.pts }
        #expect(hlsPackets.first?.key == true)
        let hlsPlayed = (hlsPackets.last.map { $0.pts + $0.duration } ?? 0) - (hlsPackets.first?.pts ?? 0)
        let hlsRecorded = hlsEnd.timeIntervalSince(segments[0].start) - segments[2].start.timeIntervalSince(segments[1].start)
        #expect(abs(hlsPlayed - hlsRecorded) <= 1.0 / 15 + 1e-3, "played \(hlsPlayed) s of \(hlsRecorded) s recorded")
        #expect(try server.get("/get?path=live&start=2001-01-01T00:00:00Z&duration=5&format=hls").status == 404)
        #expect(try server.get("/playback/0.mp4").status == 404)
        #expect(try server.get("/playback/..%2f..%2fetc%2fpasswd").status == 404)

        // Refusals.
        #expect(try server.get("/get?path=live&start=yesterday&duration=5").status == 400)
        #expect(try server.get("/get?path=../../etc&start=\(PlaybackQuery.formatRFC3339(start))&duration=5").status == 400)
        #expect(try server.get("/get?path=other&start=\(PlaybackQuery.formatRFC3339(start))&duration=5").status == 404)
        #expect(try server.get("/get?path=live&start=2001-01-01T00:00:00Z&duration=5").status == 404)
        #expect(try server.get("/list?path=live&start=2001-01-01T00:00:00Z&end=2001-01-02T00:00:00Z").status == 404)
    }
}
#endif
