#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

@Suite(.serialized) struct DeviceFileSourceTests {
    /// A `seconds`-long MKV with 25 fps 160x120 video and 48 kHz audio, made by ffmpeg.
    private func makeClip(seconds: Double) throws -> String {
        let path = try Tools.temporaryDirectory().appendingPathComponent("clip.mkv").path
        try Tools.ffmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)",
            "-c:v", "mpeg4", "-q:v", "5", "-c:a", "pcm_s16le", path,
        ])
        return path
    }

    @Test func pacesPlaybackAtRealTime() throws {
        let path = try makeClip(seconds: 2)
        let source = FileSource(path: path)
        #expect(source.mediaTypes == [.video, .audio])
        let clock = CaptureClock()
        let recorder = CaptureRecorder()
        let started = Date()
        try source.start(clock: clock, handlers: recorder.handlers(clock: clock))
        let ended = waitUntil(timeout: 5) { !recorder.ended.isEmpty }
        let elapsed = Date().timeIntervalSince(started)
        source.stop()
        #expect(ended)
        #expect(recorder.ended.count == 1)
        #expect(recorder.ended.first.map { $0 == nil } == true, "ended(nil) at the end of the file")
        #expect(abs(elapsed - 2.0) <= 0.3, "a 2 s file took \(elapsed) s")

        let frames = recorder.frames
        #expect(frames.count == 50)
        guard let first = frames.first else { return }
        for (index, (frame, arrived)) in frames.enumerated() {
            let offset = frame.pts.seconds - first.frame.pts.seconds
            #expect(abs(offset - Double(index) * 0.04) < 0.001, "frame \(index) at +\(offset) s")
            #expect(arrived.seconds - frame.pts.seconds < 0.15, "frame \(index) delivered on time")
            #expect(arrived.seconds - frame.pts.seconds > -0.01, "frame \(index) not early")
            #expect(frame.width == 160 && frame.height == 120 && frame.pixelFormat == .yuv420p)
        }
        let audio = recorder.audio
        let samples = audio.reduce(0) { $0 + $1.buffer.frameCount }
        #expect(abs(samples - 96000) < 2048, "2 s of audio, got \(samples) samples")
        for (earlier, later) in zip(audio, audio.dropFirst()) {
            // Consecutive buffers are contiguous on the session timeline.
            #expect(abs(later.buffer.pts.seconds - earlier.buffer.pts.seconds - earlier.buffer.duration.seconds) < 0.001)
        }
        #expect(abs((audio.first?.buffer.pts.seconds ?? 0) - first.frame.pts.seconds) < 0.05, "audio and video start together")
    }

    @Test func deliversOnlyTheRequestedStreamAtTheRequestedSize() throws {
        let path = try makeClip(seconds: 0.5)
        let source = FileSource(path: path, mediaTypes: [.video], outputSize: (80, 60))
        let clock = CaptureClock()
        let recorder = CaptureRecorder()
        try source.start(clock: clock, handlers: recorder.handlers(clock: clock))
        #expect(waitUntil(timeout: 3) { !recorder.ended.isEmpty })
        source.stop()
        #expect(recorder.audio.isEmpty)
        #expect(recorder.frames.count == 13 || recorder.frames.count == 12)
        #expect(recorder.frames.allSatisfy { $0.frame.width == 80 && $0.frame.height == 60 })
    }

    @Test func loopsSeamlesslyAndStopsPromptly() throws {
        let path = try makeClip(seconds: 0.4)
        let source = FileSource(path: path, mediaTypes: [.video], loop: true)
        let clock = CaptureClock()
        let recorder = CaptureRecorder()
        try source.start(clock: clock, handlers: recorder.handlers(clock: clock))
        letTimePass(1.1, "the file plays past its end and loops")
        let stopStarted = Date()
        source.stop()
        #expect(Date().timeIntervalSince(stopStarted) < 0.3)
        #expect(recorder.ended.isEmpty, "a looping file never ends by itself")
        let frames = recorder.frames
        #expect(frames.count >= 24, "about 27 frames in 1.1 s, got \(frames.count)")
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            #expect(abs(later.frame.pts.seconds - earlier.frame.pts.seconds - 0.04) < 0.002)
        }
    }

    @Test func missingFileFailsWithFFmpegsMessage() {
        let source = FileSource(path: "/nonexistent/clip.mp4")
        do {
            try source.start(clock: CaptureClock(), handlers: CaptureHandlers())
            Issue.record("opening a missing file should fail")
        } catch {
            #expect(
                error.description == "cannot open file:/nonexistent/clip.mp4: No such file or directory",
                "\(error.description)")
        }
    }

    @Test func missingStreamIsReported() throws {
        let path = try Tools.temporaryDirectory().appendingPathComponent("silent.mkv").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=0.2", "-c:v", "mpeg4", path])
        let source = FileSource(path: path)
        #expect(throws: CaptureError.missingStream(source: "file:\(path)", mediaType: .audio)) {
            try source.start(clock: CaptureClock(), handlers: CaptureHandlers())
        }
    }
}
#endif
