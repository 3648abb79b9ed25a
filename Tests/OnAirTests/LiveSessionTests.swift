import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// LiveSession driven the way the README shows, checked with ffprobe.
@Suite struct LiveSessionTests {
    @Test func readmeExampleRecordsEveryOutput() throws {
        let dir = try Tools.temporaryDirectory("live")
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = ["out.mp4", "out.h264"].map { dir.appendingPathComponent($0).path }

        let video = VideoEncoderSettings(width: 320, height: 240, expectedFrameRate: 30, averageBitRate: 500_000)
        let audio = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 128_000)
        var configuration = LiveSession.Configuration(video: video, audio: audio)
        configuration.duration = 2
        let source = try SyntheticSource(video: (320, 240, 30), audio: (48_000, 2))
        let outputs = try paths.map { try SinkFactory.sink(for: $0, streams: [.video, .audio]) }
        let session = try LiveSession(configuration: configuration, sources: [source], sinks: outputs)
        try session.start()
        #expect(session.waitForSources(timeout: 15))
        session.forceKeyFrame()
        try session.stop()

        let stats = session.statistics()
        #expect(stats.framesIn == stats.framesOut + stats.droppedFrames - stats.sourceSkippedFrames)
        for path in paths {
            let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", path])
            let streams = info["streams"] as? [[String: Any]] ?? []
            let frames = Int(streams.first { $0["codec_type"] as? String == "video" }?["nb_read_frames"] as? String ?? "") ?? 0
            #expect(frames + stats.droppedFrames >= 58 && frames <= 61, "\(path): \(frames) frames")
        }
    }

    @Test func settingsAreCheckedBeforeAnythingRuns() throws {
        let video = VideoEncoderSettings(width: 321, height: 240)
        #expect(throws: SettingsError.self) {
            _ = try LiveSession(configuration: .init(video: video, audio: nil), sources: [], sinks: [])
        }
    }
}
