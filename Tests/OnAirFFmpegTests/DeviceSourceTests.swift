#if os(Linux)
import Foundation
import OnAirCore
import OnAirTestSupport
import Testing

@testable import OnAirFFmpeg

/// Expected BT.601 limited-range Y, Cb, Cr for an 8-bit RGB colour.
private func yuv(_ r: Double, _ g: Double, _ b: Double) -> (y: Double, u: Double, v: Double) {
    let (r, g, b) = (r / 255, g / 255, b / 255)
    return (
        16 + 65.481 * r + 128.553 * g + 24.966 * b,
        128 - 37.797 * r - 74.203 * g + 112.0 * b,
        128 + 112.0 * r - 93.786 * g - 18.214 * b
    )
}

/// The mean Y, Cb, Cr of a yuv420p frame.
private func meanYUV(_ frame: VideoFrame) -> (y: Double, u: Double, v: Double) {
    func mean(_ plane: VideoFrame.Plane, width: Int, height: Int) -> Double {
        var sum = 0
        for row in 0..<height { for column in 0..<width { sum += Int(plane.bytes[row * plane.bytesPerRow + column]) } }
        return Double(sum) / Double(width * height)
    }
    return (
        mean(frame.planes[0], width: frame.width, height: frame.height),
        mean(frame.planes[1], width: frame.width / 2, height: frame.height / 2),
        mean(frame.planes[2], width: frame.width / 2, height: frame.height / 2)
    )
}

private func close(_ a: (y: Double, u: Double, v: Double), _ b: (y: Double, u: Double, v: Double), within: Double = 10) -> Bool {
    abs(a.y - b.y) <= within && abs(a.u - b.u) <= within && abs(a.v - b.v) <= within
}

@Suite(.serialized) struct DeviceSourceTests {
    @Test(.enabled(if: toolExists("Xvfb") && toolExists("xsetroot"), "needs Xvfb and xsetroot (xvfb, x11-xserver-utils)"))
    func capturesTheX11ScreenOnTheSessionClock() throws {
        let x = try TestXServer()
        defer { x.stop() }
        try x.paint("#ff0000")
        let source = DeviceSource.screen(display: x.display, size: (320, 240), frameRate: 15, drawMouse: false)
        #expect(source.mediaTypes == [.video])
        let clock = CaptureClock()
        let recorder = CaptureRecorder()
        try source.start(clock: clock, handlers: recorder.handlers(clock: clock))
        letTimePass(1.0, "a second of the red screen")
        let redFrames = recorder.frames
        try x.paint("#0000ff")
        let blue = yuv(0, 0, 255)
        let sawBlue = waitUntil(timeout: 3) { recorder.frames.last.map { close(meanYUV($0.frame), blue) } ?? false }
        let stopStarted = Date()
        source.stop()
        #expect(Date().timeIntervalSince(stopStarted) < 0.5, "stop() must return promptly")
        let countAfterStop = recorder.frames.count
        letTimePass(0.2, "nothing may arrive after stop()")
        #expect(recorder.frames.count == countAfterStop, "nothing is delivered after stop()")

        #expect(redFrames.count >= 8, "about 15 frames in 1 s, got \(redFrames.count)")
        let red = yuv(255, 0, 0)
        for (frame, _) in redFrames {
            #expect(frame.width == 320 && frame.height == 240 && frame.pixelFormat == .yuv420p)
            #expect(frame.layoutProblem() == nil)
            let measured = meanYUV(frame)
            #expect(close(measured, red), "expected red \(red), got \(measured)")
        }
        #expect(sawBlue, "the capture follows the screen when it turns blue")
        let all = recorder.frames
        for (earlier, later) in zip(all, all.dropFirst()) { #expect(earlier.frame.pts < later.frame.pts) }
        for (frame, arrived) in all {
            #expect(abs(frame.pts.seconds - arrived.seconds) < 1.0, "pts \(frame.pts.seconds) vs arrival \(arrived.seconds)")
            #expect(frame.pts.seconds > -0.1)
        }
        #expect(recorder.ended.isEmpty)
    }

    @Test(
        .enabled(
            if: toolExists("pulseaudio") && toolExists("paplay") && toolExists("pactl"),
            "needs pulseaudio, paplay and pactl (pulseaudio, pulseaudio-utils)"))
    func capturesAToneFromAPulseAudioMonitor() throws {
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let wav = try Tools.temporaryDirectory().appendingPathComponent("tone.wav").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=10", "-ac", "1", wav])
        try pulse.play(wav)
        let source = DeviceSource.microphone(
            kind: .pulse, device: pulse.monitor, sampleRate: 48000, channels: 1,
            server: pulse.server)
        #expect(source.mediaTypes == [.audio])
        let clock = CaptureClock()
        let recorder = CaptureRecorder()
        try source.start(clock: clock, handlers: recorder.handlers(clock: clock))
        letTimePass(1.5, "a second and a half of the tone")
        let stopStarted = Date()
        source.stop()
        #expect(Date().timeIntervalSince(stopStarted) < 0.5, "stop() must return promptly")

        let buffers = recorder.audio
        #expect(!buffers.isEmpty)
        for (buffer, arrived) in buffers {
            #expect(buffer.sampleRate == 48000 && buffer.channels == 1 && buffer.layoutProblem() == nil)
            #expect(abs(buffer.pts.seconds - arrived.seconds) < 1.0)
        }
        for (earlier, later) in zip(buffers, buffers.dropFirst()) { #expect(earlier.buffer.pts < later.buffer.pts) }
        let samples = Array(buffers.flatMap { firstChannel($0.buffer) }.suffix(16384))
        #expect(samples.count >= 8192, "captured \(samples.count) samples")
        let peak = samples.map { abs($0) }.max() ?? 0
        #expect(peak > 0.05, "the tone is audible in the capture (peak \(peak))")
        let coarse = dominantFrequency(samples, sampleRate: 48000, range: 100...4000, step: 25)
        let fine = dominantFrequency(samples, sampleRate: 48000, range: (coarse - 30)...(coarse + 30), step: 2)
        #expect(abs(fine - 1000) <= 20, "dominant frequency \(fine) Hz")
    }

    @Test func missingCameraFailsNamingTheDevice() {
        let source = DeviceSource.camera(path: "/dev/video99", size: (640, 480), frameRate: 30)
        #expect(source.name == "v4l2:/dev/video99")
        do {
            try source.start(clock: CaptureClock(), handlers: CaptureHandlers())
            Issue.record("opening /dev/video99 should fail")
        } catch {
            guard case .openFailed(_, let ffmpeg, _) = error else {
                Issue.record("expected openFailed, got \(error)")
                return
            }
            #expect(error.description.contains("/dev/video99"))
            #expect(ffmpeg.message == "No such file or directory", "FFmpeg's message: \(error.description)")
        }
        source.stop()
    }

    @Test func missingDisplayFailsWithFFmpegsMessage() {
        let source = DeviceSource.screen(display: ":189")
        #expect(throws: CaptureError.self) { try source.start(clock: CaptureClock(), handlers: CaptureHandlers()) }
        do {
            try source.start(clock: CaptureClock(), handlers: CaptureHandlers())
        } catch {
            #expect(error.description.contains(":189"), "\(error.description)")
        }
    }

    @Test func oddSizesAreRejectedUpFront() {
        let source = DeviceSource.screen(display: ":0", size: (321, 240))
        #expect(throws: CaptureError.self) { try source.start(clock: CaptureClock(), handlers: CaptureHandlers()) }
    }

    @Test func timestampMapperHandlesWallClockOffsetAndMissingStamps() {
        let clock = CaptureClock()
        var wall = DeviceTimestampMapper()
        let nowWall = Int64(Date().timeIntervalSince1970 * 1e6)
        let mapped = wall.map(MediaTime(value: nowWall, timescale: 1_000_000), clock: clock)
        #expect(abs(mapped.seconds - clock.now().seconds) < 0.1)
        var offset = DeviceTimestampMapper()
        let first = offset.map(MediaTime(value: 5_000_000, timescale: 1_000_000), clock: clock)
        let second = offset.map(MediaTime(value: 5_040_000, timescale: 1_000_000), clock: clock)
        #expect(abs(second.seconds - first.seconds - 0.04) < 1e-6, "a device clock keeps its spacing")
        var none = DeviceTimestampMapper()
        let a = none.map(.zero, clock: clock), b = none.map(.zero, clock: clock)
        #expect(b > a && abs(b.seconds - clock.now().seconds) < 0.1)
    }
}
#endif
