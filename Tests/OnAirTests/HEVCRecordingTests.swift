#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// H.265 recorded from one encode to every file face: `.h265` Annex-B, MP4 and MOV tagged `hvc1`
/// with the parameter sets in `hvcC`, Matroska, MPEG-TS; read back with ffprobe and decoded with
/// no error, frame codes and beeps in step (`onair probe --sync`). FLV, where this FFmpeg has no enhanced RTMP, fails with the version named.
@Suite("HEVC recording")
struct HEVCRecordingTests {
    /// Two seconds of synthetic 320x180 at 30 fps encoded once to H.265 (libx265 ultrafast, which two
    /// shared cores keep in real time at this size).
    private static func settings(outputs: [String]) -> SessionSettings {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.videoEncoder = VideoEncoderSettings(width: 320, height: 180, expectedFrameRate: 30, averageBitRate: 400_000)
        settings.videoEncoder.preset = "ultrafast"
        settings.videoEncoder.codec = .h265
        settings.outputs = outputs
        settings.duration = .seconds(2)
        return settings
    }

    @Test("h265, mp4, mov, mkv, ts: hevc Main 320x180 at 30 fps, hvc1 in MP4 and MOV, decode clean")
    func everyFileFace() async throws {
        let dir = try Tools.temporaryDirectory("hevc-record")
        defer { try? FileManager.default.removeItem(at: dir) }
        let names = ["out.h265", "out.mp4", "out.mov", "out.mkv", "out.ts"]
        let paths = names.map { dir.appendingPathComponent($0).path }
        let outcome = try await SessionBuilder(Self.settings(outputs: paths)).build().run()
        #expect(outcome.failedOutputs.isEmpty, "\(outcome.failedOutputs)")
        for path in paths {
            let info = try Tools.ffprobeJSON(["-show_streams", "-select_streams", "v:0", path])
            let stream = try #require((info["streams"] as? [[String: Any]])?.first, "\(path)")
            #expect(stream["codec_name"] as? String == "hevc", "\(path)")
            #expect(stream["profile"] as? String == "Main", "\(path)")
            #expect(stream["width"] as? Int == 320 && stream["height"] as? Int == 180, "\(path)")
            // The asked rate; the average can be lower where a loaded machine dropped late frames.
            #expect(stream["r_frame_rate"] as? String == "30/1", "\(path)")
            if path.hasSuffix(".mp4") || path.hasSuffix(".mov") { #expect(stream["codec_tag_string"] as? String == "hvc1", "\(path)") }
            let decode = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "\(path): \(decode.stderr)")
            // `onair probe --sync`'s analysis: the frame codes read back from the H.265 pictures,
            // the beeps from the sound, in step within a frame.
            guard !path.hasSuffix(".h265") else { continue }
            let sync = try SyncProbe.analyze(path: path)
            #expect(sync.frames >= 50 && sync.flashes >= 1 && sync.beeps >= 1, "\(path): \(sync)")
            #expect((sync.maxAVOffsetMilliseconds ?? .infinity) < 34, "\(path): \(sync)")
        }
    }

    @Test("FLV with H.265 fails at once naming the FFmpeg version enhanced RTMP needs")
    func flvRefused() async throws {
        let dir = try Tools.temporaryDirectory("hevc-flv")
        defer { try? FileManager.default.removeItem(at: dir) }
        var settings = Self.settings(outputs: [dir.appendingPathComponent("out.flv").path, dir.appendingPathComponent("out.ts").path])
        settings.duration = .seconds(1)
        let outcome = try await SessionBuilder(settings).build().run()
        let reasons = outcome.failedOutputs.map { "\($0)" }.joined()
        #expect(reasons.contains("FFmpeg 6.1"), "\(reasons)")
    }
}
#endif
