import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The session builder through its async API: a stream with a local recording, cancelled.
@Suite struct SessionBuilderTests {
    /// A UDP stream to a socket that never reads (sends never wait) and an MP4 recording from the
    /// same encode.
    private static func streamSettings(recording: String, port: Int) throws -> SessionSettings {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.videoEncoder = VideoEncoderSettings(width: 320, height: 240, expectedFrameRate: 30, averageBitRate: 500_000)
        settings.videoEncoder.preset = "ultrafast"
        settings.outputs = ["udp://127.0.0.1:\(port)", recording]
        return settings
    }

    @Test func cancellingTheRunFinishesTheRecordingWithinASecond() async throws {
        let dir = try Tools.temporaryDirectory("session-cancel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("local.mp4").path
        let receiver = try LoopbackSocket(udp: true)
        defer { withExtendedLifetime(receiver) {} }
        let session = try await SessionBuilder(try Self.streamSettings(recording: recording, port: receiver.port)).build()
        let events = session.events()
        let run = Task { try await session.run() }
        // Wait for two seconds of statistics, then cancel.
        var seconds = 0
        for await event in events {
            if case .statistics = event { seconds += 1 }
            if seconds == 2 { break }
        }
        let cancelled = ProcessInfo.processInfo.systemUptime
        run.cancel()
        let outcome = try await run.value
        let took = ProcessInfo.processInfo.systemUptime - cancelled
        #expect(outcome.reason == .cancelled)
        #expect(took < 1.0, "the cancelled run took \(took) s to return")
        #expect(outcome.failedOutputs.isEmpty)
        // The file is complete: every encoded frame, and it decodes without an error.
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", "-select_streams", "v:0", recording])
        let frames = Int((info["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String ?? "") ?? 0
        #expect(frames == outcome.statistics.framesOut && frames >= 45, "\(frames) frames of \(outcome.statistics.framesOut)")
        let clean = try Tools.run("ffmpeg", ["-v", "error", "-i", recording, "-f", "null", "-"])
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")
        // The event stream ended with the session.
        var after = 0
        for await _ in events { after += 1 }
        #expect(after < 300)
    }

    @Test func aSourceThatCannotOpenLeavesNoOutputFile() async throws {
        let dir = try Tools.temporaryDirectory("session-bad-source")
        defer { try? FileManager.default.removeItem(at: dir) }
        var settings = SessionSettings()
        settings.video = .file(path: dir.appendingPathComponent("missing.mkv").path)
        settings.audio = .none
        settings.videoEncoder = VideoEncoderSettings(width: 320, height: 240, expectedFrameRate: 30, averageBitRate: 500_000)
        let output = dir.appendingPathComponent("out.mp4").path
        settings.outputs = [output]
        await #expect(throws: (any Error).self) {
            let session = try await SessionBuilder(settings).build()
            try session.start()
        }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func settingsAreRejectedNamingTheField() async {
        var settings = SessionSettings()
        settings.video = .synthetic
        settings.audio = .synthetic
        settings.outputs = ["out.xyz"]
        await #expect(throws: SinkError.unknownOutput("out.xyz")) { _ = try await SessionBuilder(settings).build() }
        settings.outputs = ["out.mp4"]
        settings.streaming.minimumBitRate = 2_000_000
        settings.streaming.maximumBitRate = 1_000_000
        await #expect { _ = try await SessionBuilder(settings).build() } throws: { ($0 as? SettingsError)?.field == "minimumBitRate" }
    }

    @Test func everyOutputNameHasOneKind() throws {
        let expected: [(String, String, OutputRole)] = [
            ("a.mp4", "mp4", .file), ("a.MOV", "mov", .file), ("a.ts", "ts", .file), ("a.flv", "flv", .file),
            ("a.h264", "h264", .file), ("a.aac", "aac", .file), ("live/a.m3u8", "hls", .file), ("hls:dir", "hls", .file),
            ("rtmp://h/app/key", "rtmp", .network), ("rtmps://h/app/key", "rtmps", .network),
            ("srt://127.0.0.1:9000", "srt", .network), ("udp://127.0.0.1:1234", "udp", .network), ("tcp://127.0.0.1:1", "tcp", .network),
            ("rtsp://127.0.0.1:8554/live", "rtsp", .network),
        ]
        for (name, kind, role) in expected {
            let found = try OutputRegistry.kind(for: name)
            #expect(found.name == kind && found.role == role, "\(name) → \(found.name)")
            #expect(OutputRegistry.kinds.filter { $0.accepts(name) }.count == 1, "\(name) matches more than one kind")
        }
        #expect(try OutputRegistry.kind(for: "a.h264").streams == [.video])
        #expect(try OutputRegistry.kind(for: "a.m4a").streams == [.audio])
    }
}
