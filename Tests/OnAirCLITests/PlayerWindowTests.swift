#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair play`'s window and sound beyond the live stream, checked from the outside under a
/// private Xvfb and a PulseAudio null sink: a picture that changes size mid-stream, an input with
/// only sound, and the keys (driven with `xdotool`, the picture read back with x11grab).
@Suite(.serialized) struct PlayerWindowTests {
    static let rigAvailable = ["Xvfb", "pulseaudio", "ffmpeg"].allSatisfy(toolExists)
    static let keysAvailable = rigAvailable && toolExists("xdotool")

    /// A private display of the given size, a PulseAudio null sink and a scratch directory.
    struct Rig {
        let display: TestXServer
        let pulse: TestPulseServer
        let dir: URL

        init(width: Int = 320, height: Int = 240, label: String) throws {
            display = try TestXServer(width: width, height: height)
            do {
                pulse = try TestPulseServer()
                dir = try Tools.temporaryDirectory(label)
            } catch {
                display.stop()
                throw error
            }
        }

        /// The variables that put a player on this display and sink.
        var environment: [String] {
            ["DISPLAY=\(display.display)", "SDL_VIDEODRIVER=x11", "SDL_AUDIODRIVER=pulseaudio", "PULSE_SERVER=\(pulse.server)"]
        }

        func stop() {
            display.stop()
            pulse.stop()
            try? FileManager.default.removeItem(at: dir)
        }
    }

    /// The whole screen now, one grey byte per pixel.
    static func screenshot(_ display: TestXServer, width: Int, height: Int) throws -> [UInt8] {
        let result = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "x11grab", "-draw_mouse", "0",
                "-video_size", "\(width)x\(height)", "-i", display.display, "-frames:v", "1",
                "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1",
            ])
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
        let rig = try Rig(width: width, height: height, label: "play-resize")
        defer { rig.stop() }
        let (display, dir) = (rig.display, rig.dir)
        // 3 s each at 320x240, 640x360, 320x240, 640x360, the new parameter sets in FLV sequence headers.
        let flv = try ResolutionChangeTests.changingFLV(in: dir)
        let player = BackgroundProcess("env", rig.environment + [Tools.onairExecutable, "play", flv, "--json"])
        // The window (sized to the first picture: the whole screen) recorded while the file plays.
        let recording = try Tools.run(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-loglevel", "error", "-t", "14", "-f", "x11grab",
                "-draw_mouse", "0", "-framerate", "5", "-video_size", "\(width)x\(height)",
                "-i", display.display, "-vsync", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1",
            ])
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
        let rig = try Rig(label: "play-audio-only")
        defer { rig.stop() }
        let (pulse, dir) = (rig.pulse, rig.dir)
        let tone = dir.appendingPathComponent("tone.ts").path
        try Tools.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "6", "-c:a", "aac", "-f", "mpegts", tone])
        let player = BackgroundProcess("env", rig.environment + [Tools.onairExecutable, "play", tone, "--json"])
        letTimePass(1.5, "the player opens its sink and plays")
        // Two seconds of what the null sink plays, mono 16-bit.
        let heard = try Tools.run(
            "env",
            [
                "PULSE_SERVER=\(pulse.server)", "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error",
                "-f", "pulse", "-i", pulse.monitor, "-t", "2", "-ac", "1", "-ar", "48000",
                "-f", "s16le", "pipe:1",
            ])
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
        let rig = try Rig(width: width, height: height, label: "play-keys")
        defer { rig.stop() }
        let (display, dir) = (rig.display, rig.dir)
        let clip = dir.appendingPathComponent("clip.ts").path
        let made = try Tools.run(
            Tools.onairExecutable, ["record", "--fast", "--duration", "20", "--size", "\(width)x\(height)", "-o", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let start = Date()
        let player = BackgroundProcess("env", rig.environment + [Tools.onairExecutable, "play", clip, "--json"])
        var window: String?
        _ = waitUntil(timeout: 15) {
            let found = try? Tools.run("env", ["DISPLAY=\(display.display)", "xdotool", "search", "--name", "^onair play"])
            window = found?.stdoutText.split(separator: "\n").first.map(String.init)
            return window != nil
        }
        let first = try #require(window, "the player's window did not appear")
        // Each key goes to the window found by name then, which can vanish between the search and
        // the send (X BadWindow: one fresh-clone CI run, Escape after the two full-screen toggles):
        // the search and the send are tried again, up to three times, and the key must reach a
        // player window in one of them.
        let key = { (name: String) throws in
            var failures: [String] = []
            for _ in 0..<3 {
                let found = try Tools.run("env", ["DISPLAY=\(display.display)", "xdotool", "search", "--name", "^onair play"])
                let ids = found.stdoutText.split(separator: "\n").map(String.init)
                // A send that failed as the window closed reached the player (Escape: xdotool got
                // BadWindow as the player quit, in a fresh-clone CI run): with no window left and
                // the player gone, nothing is sent again; the caller judges what the key did (the
                // player's exit and its status).
                if ids.isEmpty && !failures.isEmpty && waitUntil(timeout: 5, { player.hasFinished }) {
                    print("keys: the player exited after \(name) was sent; not sent again")
                    break
                }
                let id = try #require(
                    ids.last,
                    "no player window before key \(name) (first was \(first)): \(player.hasFinished ? "the player had exited" : "the player still ran")"
                )
                if ids != [first] { print("keys: windows named 'onair play' before \(name): \(ids) (first was \(first))") }
                let sent = try Tools.run("env", ["DISPLAY=\(display.display)", "xdotool", "key", "--window", id, name])
                if sent.status == 0 { break }
                failures.append("xdotool key \(name) to window \(id): \(sent.stderr)")
                print("keys: \(failures.last!)")
            }
            #expect(failures.count < 3, "\(failures)")
            letTimePass(0.7, "the key takes effect before the next one")
        }
        let shot = { try Self.screenshot(display, width: width, height: height) }
        // The screen read back until `condition` holds (a loaded machine may take a while to draw).
        let shotWhen = { (condition: ([UInt8]) -> Bool) throws -> [UInt8] in
            var picture = try shot()
            for _ in 0..<20 where !condition(picture) {
                letTimePass(0.5, "the window draws the next pictures")
                picture = try shot()
            }
            return picture
        }
        // The overlay: a dark box of white text at the top left, over the still picture.
        let box = (0..<60).flatMap { row in (0..<140).map { row * width + $0 } }
        let overlaid = { (picture: [UInt8], under: [UInt8]) -> (changed: Int, white: Int) in
            (box.filter { picture[$0] != under[$0] }.count, box.filter { picture[$0] > 240 && under[$0] <= 240 }.count)
        }
        // A key whose effect `seen` looks for on the screen (for up to ten seconds) is sent once
        // more if nothing is seen: on a loaded machine a synthetic key event (XSendEvent) was lost
        // now and then. The effect must then be seen.
        let press = { (name: String, seen: () throws -> Bool) throws -> Bool in
            try key(name)
            if try seen() { return true }
            print("keys: \(name) had no effect on the screen in ten seconds; sent again")
            try key(name)
            return try seen()
        }
        // Paused: the synthetic picture (whose frame code changes every frame) stands still, two
        // screens a second apart the same.
        var paused: [UInt8] = []
        let standsStill = { () throws -> Bool in
            for _ in 0..<10 {
                let before = try shot()
                letTimePass(1, "a moving picture changes within a second; a paused one does not")
                paused = try shot()
                if paused == before { return true }
            }
            return false
        }
        letTimePass(2, "the picture plays before it is paused")
        #expect(try press("space", standsStill), "the picture kept moving after space")
        let withOverlay = { try shotWhen { overlaid($0, paused).white > 100 } }
        _ = try press("i") { overlaid(try withOverlay(), paused).changed > 0 }
        let overlay = overlaid(try withOverlay(), paused)
        #expect(overlay.changed > 500 && overlay.white > 100, "overlay: \(overlay.changed) pixels changed, \(overlay.white) turned white")
        #expect(try press("i") { try shotWhen { $0 == paused } == paused }, "the overlay did not go away")
        try key("f")
        try key("f")
        #expect(try press("space") { try shotWhen { $0 != paused } != paused }, "the picture did not move again after space")
        _ = try press("Escape") { waitUntil(timeout: 10) { player.hasFinished } }
        let played = try player.result()
        let elapsed = Date().timeIntervalSince(start)
        #expect(played.status == 0, "\(played.stderr)")
        let report = try Self.report(played)
        // Esc quit the 20-second file (600 frames, decoded at its pace) before its end.
        #expect((report["frames"] as? Int ?? 600) < 600, "played \(elapsed) s")
    }
}
#endif
