#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

@Suite struct SyncAnalysisTests {
    /// Capture time of the first frame and first audio sample: off the 1/30 s grid, and after beep 0 ends.
    static let start = 0.1125
    static let rate = 48000

    /// Muxes `frames` (at 30 fps) with 3 s of synthetic audio captured from `start`, delaying the
    /// audio by `audioDelay` seconds, and returns the MP4.
    private func mux(_ frames: [VideoFrame], audioDelay: Double? = nil, in directory: URL) throws -> URL {
        let video = directory.appendingPathComponent("video.yuv"), audio = directory.appendingPathComponent("audio.f32")
        try SyntheticTestMedia.rawVideo(frames).write(to: video)
        let generator = try SyntheticAudio(sampleRate: Self.rate, channels: 2)
        let first = Int64((Self.start * Double(Self.rate)).rounded())
        try Data(generator.samples(startingAt: first, count: Self.rate * 3).planes[0]).write(to: audio)
        let output = directory.appendingPathComponent("out.mp4")
        let size = "\(frames[0].width)x\(frames[0].height)"
        try Tools.ffmpeg(
            ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", size, "-r", "30", "-i", video.path]
                + (audioDelay.map { ["-itsoffset", "\($0)"] } ?? [])
                + [
                    "-f", "f32le", "-ar", "\(Self.rate)", "-ac", "2", "-i", audio.path,
                    "-c:v", "libx264", "-preset", "veryfast", "-b:v", "500k", "-c:a", "aac", output.path,
                ])
        return output
    }

    /// Decodes `file` the way `onair probe --sync` will: frames with their file pts, audio from file time 0.
    private func analyze(_ file: URL) throws -> SyncReport {
        let pts = try SyntheticTestMedia.videoFrameTimes(file)
        let first = pts.first ?? 0
        let frames = SyntheticTestMedia.splitRawVideo(try SyntheticTestMedia.decodeVideo(file), width: 320, height: 180, pts: pts)
        #expect(frames.count == pts.count && first == 0)
        let audio = SyntheticTestMedia.pcm(
            try SyntheticTestMedia.decodeAudio(file, channels: 2, fromZero: true),
            sampleRate: Self.rate, channels: 2)
        return try SyncAnalysis.analyze(videoFrames: frames, audio: audio)
    }

    private func generate(_ indices: [Int]) throws -> [VideoFrame] {
        let video = try SyntheticVideo(width: 320, height: 180, frameRate: 30)
        return indices.map { index in
            video.frame(index: index, captureTime: MediaTime(seconds: Self.start + Double(index) / 30))
        }
    }

    @Test func perfectFileHasNoOffsetAndNoGaps() throws {
        let directory = try Tools.temporaryDirectory("onair-sync")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try analyze(try mux(try generate(Array(0..<90)), in: directory))
        #expect(report.frames == 90 && report.droppedFrames == 0 && report.repeatedFrames == 0)
        #expect(report.flashes == 3 && report.beeps == 3 && report.offsets.map(\.second) == [1, 2, 3])
        #expect(try #require(report.maxAVOffsetMilliseconds) < 1000.0 / 30)
        #expect(try #require(report.maxAVOffsetMilliseconds) < 1)
    }

    @Test func droppedAndRepeatedFramesAreCounted() throws {
        let directory = try Tools.temporaryDirectory("onair-sync")
        defer { try? FileManager.default.removeItem(at: directory) }
        var indices = Array(0..<90).filter { !(10...12).contains($0) }
        indices.insert(20, at: indices.firstIndex(of: 20)!)
        let report = try analyze(try mux(try generate(indices), in: directory))
        #expect(report.frames == 88 && report.droppedFrames == 3 && report.repeatedFrames == 1)
    }

    @Test func delayedAudioShowsAsOffset() throws {
        let directory = try Tools.temporaryDirectory("onair-sync")
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try analyze(try mux(try generate(Array(0..<90)), audioDelay: 0.1, in: directory))
        #expect(report.offsets.count == 3)
        // Audio plays 100 ms late, so video is 100 ms early: offsets are −100 ms. (FFmpeg's MP4
        // edit list, in milliseconds, places the primed AAC track 32 samples early: −99.4 ms.)
        #expect(report.offsets.allSatisfy { abs($0.offsetMilliseconds + 100) < 1 })
        #expect(abs(try #require(report.maxAVOffsetMilliseconds) - 100) < 1)
        #expect(abs(try #require(report.meanAVOffsetMilliseconds) - 100) < 1)
    }

    @Test func uncompressedCaptureIsExactWithoutAnEncoder() throws {
        // File timeline = capture time − start on both tracks, capture times off the frame grid.
        let frames = try generate(Array(0..<95)).enumerated().map { position, frame in
            var frame = frame
            frame.pts = MediaTime(value: Int64(position), timescale: 30)
            return frame
        }
        let audio = try SyntheticAudio(sampleRate: Self.rate, channels: 1)
            .samples(startingAt: Int64(Self.start * Double(Self.rate)), count: Self.rate * 3)
        var shifted = audio
        shifted.pts = .zero
        let report = try SyncAnalysis.analyze(videoFrames: frames, audio: shifted)
        #expect(report.offsets.count == 3)
        #expect(try #require(report.maxAVOffsetMilliseconds) < 0.05)
    }

    @Test func reportEncodesTheDocumentedKeys() throws {
        let report = SyncReport(
            maxAVOffsetMilliseconds: nil, meanAVOffsetMilliseconds: nil, flashes: 1, beeps: 0,
            frames: 10, droppedFrames: 2, repeatedFrames: 0, offsets: [])
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "max_av_offset_ms", "mean_av_offset_ms", "flashes", "beeps", "frames",
                "dropped_frames", "repeated_frames", "offsets",
            ])
        #expect(json["max_av_offset_ms"] is NSNull && json["dropped_frames"] as? Int == 2)
        let full = SyncReport(
            maxAVOffsetMilliseconds: 3, meanAVOffsetMilliseconds: 2, flashes: 2, beeps: 2, frames: 60,
            droppedFrames: 0, repeatedFrames: 1, offsets: [.init(second: 1, offsetMilliseconds: -3)])
        #expect(try JSONDecoder().decode(SyncReport.self, from: JSONEncoder().encode(full)) == full)
        #expect(try JSONDecoder().decode(SyncReport.self, from: JSONEncoder().encode(report)) == report)
    }

    @Test func unreadableFlashCodeIsEstimatedFromNeighbours() {
        // Flash at position 2 has no code; its neighbour at 0.9 s (pts 0.5) puts it at capture 1.0 s.
        let frames = [
            FrameObservation(presentationTime: 0.4, frameIndex: 0, captureMicroseconds: 800_000, whiteness: 0),
            FrameObservation(presentationTime: 0.5, frameIndex: 1, captureMicroseconds: 900_000, whiteness: 0),
            FrameObservation(presentationTime: 0.6, frameIndex: nil, captureMicroseconds: nil, whiteness: 0.98),
            FrameObservation(presentationTime: 0.7, frameIndex: 3, captureMicroseconds: 1_100_000, whiteness: 0),
        ]
        let report = SyncAnalysis.analyze(frames: frames, beepTimes: [0.61])
        #expect(report.flashes == 1 && report.beeps == 1 && report.offsets.count == 1)
        #expect(abs(report.offsets[0].offsetMilliseconds + 10) < 1e-6)
        #expect(report.droppedFrames == 1 && report.repeatedFrames == 0)
    }
}
#endif
