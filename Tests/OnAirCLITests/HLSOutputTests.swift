#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair record -o DIR/stream.m3u8`: an HLS playlist ffprobe reads, segments that each start
/// with a keyframe and last the target duration, with MPEG-TS and with fragmented-MP4 segments.
@Suite struct HLSOutputTests {
    /// The segment files a playlist names, in order, with their stated durations.
    static func segments(of playlist: URL) throws -> [(name: String, duration: Double)] {
        let lines = try String(contentsOf: playlist, encoding: .utf8).split(separator: "\n").map(String.init)
        var result: [(String, Double)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") && index + 1 < lines.count {
            let value = line.dropFirst("#EXTINF:".count).split(separator: ",").first.flatMap { Double($0) } ?? 0
            result.append((lines[index + 1], value))
        }
        return result
    }

    /// The first decoded video frame of a segment file, as ffprobe reports it, and the segment's video duration.
    static func firstFrameAndDuration(_ path: String) throws -> (keyFrame: Bool, duration: Double) {
        let info = try Tools.ffprobeJSON([
            "-select_streams", "v", "-show_frames", "-show_entries",
            "frame=key_frame,pts_time,pkt_duration_time", path,
        ])
        let frames = info["frames"] as? [[String: Any]] ?? []
        let times = frames.compactMap { ($0["pts_time"] as? String).flatMap(Double.init) }
        let first = frames.first?["key_frame"] as? Int == 1
        guard let low = times.min(), let high = times.max() else { return (first, 0) }
        return (first, high - low + 1.0 / 30)
    }

    @Test(arguments: [false, true])
    func eightSecondsOfHLSWithTwoSecondSegments(fmp4: Bool) throws {
        let dir = try Tools.temporaryDirectory("hls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let playlist = dir.appendingPathComponent("out/stream.m3u8")
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "record", "--duration", "8", "--size", "640x360",
                "--hls-time", "2", "--hls-list-size", "0",
                "-o", playlist.path,
            ] + (fmp4 ? ["--hls-fmp4"] : []))
        #expect(result.status == 0, "\(result.stderr)")

        // ffprobe reads the playlist as HLS and finds both streams.
        let info = try Tools.ffprobeJSON(["-show_format", "-show_streams", playlist.path])
        #expect((info["format"] as? [String: Any])?["format_name"] as? String == "hls")
        let codecs = Set((info["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String })
        #expect(codecs == ["h264", "aac"])

        let segments = try Self.segments(of: playlist)
        #expect(segments.count >= 4, "\(segments)")
        let initSegment = dir.appendingPathComponent("out/init.mp4")
        for (position, segment) in segments.enumerated() {
            var path = dir.appendingPathComponent("out").appendingPathComponent(segment.name).path
            if fmp4 {
                // A fragment is only readable behind its initialization segment.
                let joined = dir.appendingPathComponent("joined-\(position).mp4")
                var data = try Data(contentsOf: initSegment)
                data.append(try Data(contentsOf: URL(fileURLWithPath: path)))
                try data.write(to: joined)
                path = joined.path
            }
            let measured = try Self.firstFrameAndDuration(path)
            #expect(measured.keyFrame, "segment \(segment.name) does not start with a keyframe")
            if position < segments.count - 1 {
                #expect(abs(segment.duration - 2) <= 0.2, "\(segment.name): playlist says \(segment.duration) s")
                #expect(abs(measured.duration - 2) <= 0.2, "\(segment.name): ffprobe finds \(measured.duration) s")
            }
        }
    }
}

/// `onair record --serve PORT`: the HLS directory over HTTP on loopback, played back by `onair play`
/// while it is being recorded, and nothing outside the directory served.
@Suite struct HLSServeTests {
    @Test func aServedLivePlaylistPlaysOverHTTP() throws {
        let dir = try Tools.temporaryDirectory("hls-serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Port 0: the recorder names the port it bound ("serving http://127.0.0.1:PORT/stream.m3u8").
        let recorder = try StreamTestProcess(
            Tools.onairExecutable,
            [
                "record", "--duration", "12", "--size", "640x360",
                "--hls-list-size", "0", "--serve", "0",
                "-o", dir.appendingPathComponent("stream.m3u8").path,
            ], stderrPath: dir.appendingPathComponent("record.log").path)
        defer { recorder.kill() }
        let port = try recorder.announcedPort("serving http://")
        letTimePass(5, "the recording writes a few segments")
        let outside = try Tools.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--path-as-is",
                "http://127.0.0.1:\(port)/../stream.m3u8",
            ])
        #expect(outside.stdoutText == "404")
        let played = try Tools.run(
            Tools.onairExecutable,
            [
                "play", "--no-display", "http://127.0.0.1:\(port)/stream.m3u8",
                "--duration", "3", "--json",
            ])
        #expect(played.status == 0, "\(played.stderr)")
        let report = try JSONSerialization.jsonObject(with: played.stdout) as? [String: Any] ?? [:]
        #expect((report["frames"] as? Int ?? 0) >= 85)
        #expect(report["decode_errors"] as? Int == 0)
        #expect((report["video"] as? [String: Any])?["width"] as? Int == 640)
        #expect(recorder.result().status == 0)
    }
}
#endif
