#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// `Playback` in the session's shape: an async `run()`, a stop-reason enum, events as a sequence.
@Suite struct PlaybackAsyncTests {
    /// A 2 s file played headless to its end: every frame decoded (counted by ffprobe), the
    /// statistics and then `.stopped(.inputEnded)` as the last event.
    @Test(.timeLimit(.minutes(1)))
    func aFilePlaysToItsEndAndTheLastEventIsTheStop() async throws {
        let dir = try Tools.temporaryDirectory("playback-async")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.mp4").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", clip,
        ])
        let probe = try Tools.run(
            "ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", clip])
        let frames = Int(String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let playback = Playback(Player.Configuration(url: clip))
        let events = playback.events()
        let outcome = try await playback.run()
        #expect(outcome.reason == .inputEnded)
        #expect(outcome.report.frames == frames && frames == 50, "played \(outcome.report.frames) of \(frames)")
        var last: PlaybackEvent?
        for await event in events { last = event }
        guard case .stopped(.inputEnded) = last else {
            Issue.record("the last event was \(String(describing: last))")
            return
        }
    }

    /// A live input that sends nothing (a UDP port of the kernel's choosing, which nobody knows to
    /// send to): cancelling the task after the first statistics ends the run with `.cancelled`,
    /// not the open timeout's error.
    @Test(.timeLimit(.minutes(1)))
    func cancellingTheTaskStopsAPlaybackThatWaits() async throws {
        var configuration = Player.Configuration(url: "udp://127.0.0.1:0")
        configuration.openTimeout = .seconds(30)
        let playback = Playback(configuration)
        let events = playback.events()
        let run = Task { try await playback.run() }
        for await event in events {
            if case .statistics = event { break }
        }
        run.cancel()
        let outcome = try await run.value
        #expect(outcome.reason == .cancelled)
        #expect(outcome.report.frames == 0)
    }
}
#endif
