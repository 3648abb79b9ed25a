#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// Round trips through real encoders (x264, FFmpeg's AAC) and back through FFmpeg's decoders.
@Suite struct SyncEncoderRoundTripTests {
    @Test(arguments: [(640, 360, "500k"), (160, 120, "45k")])
    func frameCodesAndFlashesSurviveX264(width: Int, height: Int, bitRate: String) throws {
        let video = try SyntheticVideo(width: width, height: height, frameRate: 30)
        let frames = SyntheticTestMedia.frames(video, count: 90)
        let directory = try Tools.temporaryDirectory("onair-synth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.mp4")
        let encode = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-r", "30",
                "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-b:v", bitRate, output.path,
            ],
            stdin: SyntheticTestMedia.rawVideo(frames))
        #expect(encode.status == 0, "\(encode.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int)
        // The stream really is at the modest bit rate asked for (3 s, ±50 %).
        let target = Double(bitRate.dropLast())! * 1000 * 3 / 8
        #expect(Double(size) < target * 1.5, "\(size) bytes for \(bitRate)")

        let decoded = SyntheticTestMedia.splitRawVideo(try SyntheticTestMedia.decodeVideo(output), width: width, height: height)
        #expect(decoded.count == 90)
        var wrong = [Int]()
        for (position, frame) in decoded.enumerated() {
            let code = FrameCode.read(from: frame)
            let expected = Int64((frames[position].pts.seconds * 1_000_000).rounded())
            if code?.index != position || code?.captureMicroseconds != expected { wrong.append(position) }
        }
        #expect(wrong.isEmpty, "unreadable or wrong codes at \(wrong)")
        let whiteness = decoded.map { FlashDetector.whiteness(of: $0) ?? 0 }
        #expect(FlashDetector().flashStarts(in: whiteness) == [0, 30, 60])
    }

    @Test func beepOnsetsSurviveAAC() throws {
        let rate = 48000
        let audio = try SyntheticAudio(sampleRate: rate, channels: 2)
        var raw = Data()
        var position: Int64 = 0
        while position < Int64(rate) * 4 {  // 4 s in 1024-sample chunks, as a capture callback would deliver
            let count = min(1024, rate * 4 - Int(position))
            raw.append(contentsOf: audio.samples(startingAt: position, count: count).planes[0])
            position += Int64(count)
        }
        let directory = try Tools.temporaryDirectory("onair-synth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.aac")
        let encode = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                "-f", "f32le", "-ar", "48000", "-ac", "2", "-i", "-", "-c:a", "aac", output.path,
            ],
            stdin: raw)
        #expect(encode.status == 0, "\(encode.stderr)")
        let decoded = SyntheticTestMedia.pcm(try SyntheticTestMedia.decodeAudio(output, channels: 2), sampleRate: rate, channels: 2)
        // ADTS carries no priming information, so FFmpeg's decoder keeps the AAC encoder's 1024
        // samples of priming (its initial_padding) in front: the signal is delayed by exactly that.
        let priming = 1024.0 / Double(rate)
        let onsets = try BeepDetector().onsets(in: decoded).map { $0 - priming }
        // Beep 0 starts on the very first sample, which the priming moves into view.
        #expect(onsets.count == 4, "\(onsets)")
        for (k, onset) in onsets.enumerated() {
            #expect(abs(onset - Double(k)) < 0.001, "beep \(k) at \(onset)")
        }
    }

    /// The synthetic picture must cost an encoder real bits, like camera content, not like a test card.
    @Test func syntheticPictureIsExpensiveToEncode() throws {
        let video = try SyntheticVideo(width: 640, height: 360, frameRate: 30)
        // Frames 1…29: no flash, so only the moving pattern is measured.
        let frames = (1..<30).map { video.frame(index: $0, captureTime: MediaTime(value: Int64($0), timescale: 30)) }
        let directory = try Tools.temporaryDirectory("onair-synth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("crf.h264")
        let encode = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
                "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "640x360", "-r", "30",
                "-i", "-", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", output.path,
            ],
            stdin: SyntheticTestMedia.rawVideo(frames))
        #expect(encode.status == 0, "\(encode.stderr)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int)
        let kilobitsPerSecond = Double(bytes * 8) / (Double(frames.count) / 30) / 1000
        #expect(kilobitsPerSecond > 600, "only \(kilobitsPerSecond) kb/s at CRF 23")
    }
}
#endif
