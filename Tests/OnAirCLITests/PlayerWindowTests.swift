import Foundation
import OnAirTestSupport
import Testing

/// `onair play`'s window and sound beyond the live stream, checked from the outside under a
/// private Xvfb and a PulseAudio null sink: a picture that changes size mid-stream, an input with
/// only sound, and the keys (driven with `xdotool`, the picture read back with x11grab).
@Suite(.serialized) struct PlayerWindowTests {
    static let rigAvailable = ["Xvfb", "pulseaudio", "ffmpeg"].allSatisfy(toolExists)
    static let keysAvailable = rigAvailable && toolExists("xdotool")

    /// The variables that put the player on `display` and `pulse`.
    static func environment(_ display: TestXServer, _ pulse: TestPulseServer) -> [String] {
        ["DISPLAY=\(display.display)", "SDL_VIDEODRIVER=x11", "SDL_AUDIODRIVER=pulseaudio", "PULSE_SERVER=\(pulse.server)"]
    }

    /// The whole screen now, one grey byte per pixel.
    static func screenshot(_ display: TestXServer, width: Int, height: Int) throws -> [UInt8] {
        let result = try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0",
                                              "-video_size", "\(width)x\(height)", "-i", display.display, "-frames:v", "1",
                                              "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"])
        guard result.status == 0, result.stdout.count == width * height else {
            throw ToolError.failed("x11grab: \(result.stderr) (\(result.stdout.count) bytes)")
        }
        return [UInt8](result.stdout)
    }

    /// The mean grey level of rows `rows` of a `width`-wide picture.
    static func meanLevel(_ picture: ArraySlice<UInt8>, width: Int, rows: Range<Int>) -> Double {
        let start = picture.startIndex
        let band = picture[(start + rows.lowerBound * width)..<(start + rows.upperBound * width)]
        return Double(band.reduce(0) { $0 + Int($1) }) / Double(max(band.count, 1))
    }

    static func report(_ result: ProcessResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] ?? [:]
    }

    @Test(.enabled(if: rigAvailable, "needs Xvfb, pulseaudio and ffmpeg"))
    func aPictureThatChangesSizeMidStreamIsFollowedInTheWindow() throws {
        let (width, height) = (320, 240)
        let display = try TestXServer(width: width, height: height)
        defer { display.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let dir = try Tools.temporaryDirectory("play-resize")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 3 s each at 320x240, 640x360, 320x240, 640x360, the new parameter sets in FLV sequence headers.
        let flv = try ResolutionChangeTests.changingFLV(in: dir)
        let player = BackgroundProcess("env", Self.environment(display, pulse) + [Tools.onairExecutable, "play", flv, "--json"])
        // The window (sized to the first picture: the whole screen) recorded while the file plays.
        let recording = try Tools.run("ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-t", "14", "-f", "x11grab",
                                                 "-draw_mouse", "0", "-framerate", "5", "-video_size", "\(width)x\(height)",
                                                 "-i", display.display, "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"])
        #expect(recording.status == 0, "\(recording.stderr)")
        let played = try player.result()
        #expect(played.status == 0, "\(played.stderr)")
        let report = try Self.report(played)
        #expect(report["decode_errors"] as? Int == 0, "\(played.stderr)")
        #expect(report["frames"] as? Int == 300, "\(played.stderr)")
        let shown = report["display"] as? [String: Any] ?? [:]
        #expect((shown["size_changes"] as? Int ?? 0) >= 3, "\(shown)")
        // A 4:3 picture fills the 4:3 window; the 16:9 one is shown at its aspect ratio, with black
        // bands above and below (the 320x240 window shows it 320x180, 30 rows of band each side).
        let pictures = [UInt8](recording.stdout)
        var filled = 0, letterboxed = 0
        for start in stride(from: 0, to: pictures.count - width * height + 1, by: width * height) {
            let picture = pictures[start..<(start + width * height)]
            let top = Self.meanLevel(picture, width: width, rows: 2..<26)
            let bottom = Self.meanLevel(picture, width: width, rows: (height - 26)..<(height - 2))
            let middle = Self.meanLevel(picture, width: width, rows: 100..<140)
            guard middle > 20 else { continue }  // nothing shown yet
            if top < 3 && bottom < 3 { letterboxed += 1 } else if top > 20 && bottom > 20 { filled += 1 }
        }
        print("pictures recorded: \(pictures.count / (width * height)), filled \(filled), letterboxed \(letterboxed)")
        #expect(filled >= 5, "the 4:3 picture filling the window")
        #expect(letterboxed >= 5, "the 16:9 picture between black bands")
    }

    @Test(.enabled(if: rigAvailable, "needs Xvfb, pulseaudio and ffmpeg"))
    func anInputWithOnlySoundIsHeard() throws {
        let display = try TestXServer()
        defer { display.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let dir = try Tools.temporaryDirectory("play-audio-only")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = dir.appendingPathComponent("tone.ts").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "6", "-c:a", "aac", "-f", "mpegts", tone])
        let player = BackgroundProcess("env", Self.environment(display, pulse) + [Tools.onairExecutable, "play", tone, "--json"])
        Thread.sleep(forTimeInterval: 1.5)
        // Two seconds of what the null sink plays, mono 16-bit.
        let heard = try Tools.run("env", ["PULSE_SERVER=\(pulse.server)", "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error",
                                          "-f", "pulse", "-i", pulse.monitor, "-t", "2", "-ac", "1", "-ar", "48000",
                                          "-f", "s16le", "pipe:1"])
        #expect(heard.status == 0, "\(heard.stderr)")
        let played = try player.result()
        #expect(played.status == 0, "\(played.stderr)")
        let report = try Self.report(played)
        #expect(report["frames"] as? Int == 0)
        #expect((report["audio_samples"] as? Int ?? 0) > 48_000 * 5)
        #expect((report["display"] as? [String: Any])?["clock"] as? String == "audio")
        let samples = heard.stdout.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
        }
        let rms = (samples.reduce(0) { $0 + $1 * $1 } / Float(max(samples.count, 1))).squareRoot()
        #expect(rms > 0.05, "the sink played \(samples.count) samples at RMS \(rms)")
        let frequency = dominantFrequency(samples, sampleRate: 48_000, range: 200...1000, step: 5)
        #expect(abs(frequency - 440) <= 10, "heard \(frequency) Hz")
    }

    @Test(.enabled(if: keysAvailable, "needs Xvfb, pulseaudio, ffmpeg and xdotool"))
    func spacePausesIShowsTheStatisticsAndEscQuits() throws {
        let (width, height) = (320, 240)
        let display = try TestXServer(width: width, height: height)
        defer { display.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let dir = try Tools.temporaryDirectory("play-keys")
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.ts").path
        let made = try Tools.run(Tools.onairExecutable, ["record", "--fast", "--duration", "20", "--size", "\(width)x\(height)", "-o", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let start = Date()
        let player = BackgroundProcess("env", Self.environment(display, pulse) + [Tools.onairExecutable, "play", clip, "--json"])
        var window: String?
        _ = waitUntil(timeout: 15) {
            let found = try? Tools.run("env", ["DISPLAY=\(display.display)", "xdotool", "search", "--name", "^onair play"])
            window = found?.stdoutText.split(separator: "\n").first.map(String.init)
            return window != nil
        }
        let id = try #require(window, "the player's window did not appear")
        let key = { (name: String) throws in
            let sent = try Tools.run("env", ["DISPLAY=\(display.display)", "xdotool", "key", "--window", id, name])
            #expect(sent.status == 0, "xdotool key \(name): \(sent.stderr)")
            Thread.sleep(forTimeInterval: 0.7)
        }
        let shot = { try Self.screenshot(display, width: width, height: height) }
        Thread.sleep(forTimeInterval: 2)
        try key("space")
        let paused = try shot()
        Thread.sleep(forTimeInterval: 1)
        let stillPaused = try shot()
        try key("i")
        let withOverlay = try shot()
        try key("i")
        let withoutOverlay = try shot()
        try key("f")
        try key("f")
        // Paused: the synthetic picture (whose frame code changes every frame) stands still.
        #expect(paused == stillPaused, "the picture moved while paused")
        #expect(withoutOverlay == paused, "the overlay did not go away")
        // The overlay: a dark box of white text at the top left, over the still picture.
        let box = (0..<60).flatMap { row in (0..<140).map { row * width + $0 } }
        let changed = box.filter { withOverlay[$0] != paused[$0] }.count
        let white = box.filter { withOverlay[$0] > 240 && paused[$0] <= 240 }.count
        #expect(changed > 500 && white > 100, "overlay: \(changed) pixels changed, \(white) turned white")
        try key("space")
        Thread.sleep(forTimeInterval: 1)
        #expect(try shot() != paused, "the picture did not move again after space")
        try key("Escape")
        let played = try player.result()
        let elapsed = Date().timeIntervalSince(start)
        #expect(played.status == 0, "\(played.stderr)")
        let report = try Self.report(played)
        // Esc quit a 20-second file well before its end.
        #expect(elapsed < 17, "played \(elapsed) s")
        #expect((report["frames"] as? Int ?? 600) < 600)
    }
}
