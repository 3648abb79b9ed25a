#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair record` from real capture devices: an X11 screen under Xvfb and a PulseAudio monitor.
@Suite(.serialized) struct CaptureRecordTests {
    /// Mean RGB of each decoded frame of `path` (scaled down to 32×24 by ffmpeg).
    static func frameColours(_ path: String) throws -> [(r: Double, g: Double, b: Double)] {
        let result = try Tools.run("ffmpeg", ["-v", "error", "-i", path, "-vf", "scale=32:24", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let bytes = [UInt8](result.stdout)
        let frameSize = 32 * 24 * 3
        return stride(from: 0, to: bytes.count - frameSize + 1, by: frameSize).map { start in
            var sum = (0.0, 0.0, 0.0)
            for pixel in stride(from: start, to: start + frameSize, by: 3) {
                sum.0 += Double(bytes[pixel]); sum.1 += Double(bytes[pixel + 1]); sum.2 += Double(bytes[pixel + 2])
            }
            let n = Double(32 * 24)
            return (sum.0 / n, sum.1 / n, sum.2 / n)
        }
    }

    @Test(.enabled(if: toolExists("Xvfb") && toolExists("xsetroot"), "needs Xvfb and xsetroot (xvfb, x11-xserver-utils)"))
    func recordsTheColoursDrawnOnAnX11Screen() throws {
        let screen = try TestXServer(width: 320, height: 240)
        defer { screen.stop() }
        try screen.paint("#ff0000")
        let dir = try Tools.temporaryDirectory("record-x11")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("screen.mp4").path
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: Tools.onairExecutable)
        recorder.arguments = [
            "record", "--video", "x11:\(screen.display)", "--duration", "4", "--size", "320x240",
            "--fps", "25", "-o", output,
        ]
        let errors = Pipe()
        recorder.standardError = errors
        try recorder.runUnblocked()
        letTimePass(2, "two seconds of the first colour are recorded")
        try screen.paint("#0000ff")
        recorder.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(recorder.terminationStatus == 0, "\(stderr)")
        let colours = try Self.frameColours(output)
        #expect(colours.count >= 90, "\(colours.count) frames")
        let red = colours.filter { $0.r > 200 && $0.g < 40 && $0.b < 40 }.count
        let blue = colours.filter { $0.b > 200 && $0.r < 40 && $0.g < 40 }.count
        #expect(red >= 25 && blue >= 25, "red frames \(red), blue frames \(blue) of \(colours.count)")
        // Red comes first, then blue: the screen was captured as it changed.
        let firstBlue = colours.firstIndex { $0.b > 200 && $0.r < 40 } ?? 0
        #expect(colours[..<firstBlue].allSatisfy { $0.b < 200 })
    }

    @Test(.enabled(if: toolExists("pulseaudio") && toolExists("paplay"), "needs pulseaudio and paplay (pulseaudio, pulseaudio-utils)"))
    func recordsAToneFromAPulseAudioMonitor() throws {
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let dir = try Tools.temporaryDirectory("record-pulse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = dir.appendingPathComponent("tone.wav").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=20", "-ac", "2", tone])
        try pulse.play(tone)
        let output = dir.appendingPathComponent("mic.aac").path
        let result = try Tools.run(
            "env",
            [
                "PULSE_SERVER=\(pulse.server)", Tools.onairExecutable, "record",
                "--audio", "pulse:\(pulse.monitor)", "--duration", "3", "-o", output,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try Tools.run("ffmpeg", ["-v", "error", "-i", output, "-f", "f32le", "-ac", "1", "-ar", "48000", "-"])
        let samples = stride(from: 0, to: decoded.stdout.count - 3, by: 4).map { offset in
            decoded.stdout.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Float.self) }
        }
        #expect(samples.count >= 48_000 * 2, "\(samples.count) samples")
        let middle = Array(samples.dropFirst(samples.count / 4).prefix(24_000))
        let peak = middle.map(abs).max() ?? 0
        #expect(peak > 0.1, "the tone is audible in the recording (peak \(peak))")
        let frequency = dominantFrequency(middle, sampleRate: 48_000, range: 200...4000, step: 5)
        #expect(abs(frequency - 1000) <= 20, "dominant frequency \(frequency) Hz")
    }
}
#endif
