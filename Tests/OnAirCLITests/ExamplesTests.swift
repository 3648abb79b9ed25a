#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// The Examples programs build against OnAir by path and do what they say:
/// app-made frames streamed to a URL while recording, and a player window.
@Suite(.serialized) struct ExamplesTests {
    static let root = Tools.packageRoot
    static let rigAvailable = ["Xvfb", "pulseaudio", "ffmpeg"].allSatisfy(toolExists)

    /// The Examples programs, built from Examples/Sources in DocumentationSnippetTests' scratch
    /// package (one build of OnAir for both); Examples/Package.swift itself is checked to name
    /// those programs, on the OnAir product, by path.
    static func build() throws -> URL {
        let manifest = try Tools.run("swift", ["package", "dump-package", "--package-path", root.appendingPathComponent("Examples").path])
        let dump = (try? JSONSerialization.jsonObject(with: manifest.stdout)) as? [String: Any] ?? [:]
        let targets = (dump["targets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        guard manifest.status == 0, Set(targets) == Set(DocumentationSnippetTests.examples),
            String(decoding: manifest.stdout, as: UTF8.self).contains("\"OnAir\"")
        else {
            throw ToolError.failed("Examples/Package.swift does not declare \(DocumentationSnippetTests.examples): \(manifest.stderr)")
        }
        return try DocumentationSnippetTests.programs.get()
    }

    static func frames(_ path: String) throws -> (video: Int, audio: Int) {
        let info = try Tools.ffprobeJSON(["-count_frames", "-show_streams", path])
        let streams = info["streams"] as? [[String: Any]] ?? []
        func count(_ type: String) -> Int {
            streams.filter { $0["codec_type"] as? String == type }.compactMap { Int($0["nb_read_frames"] as? String ?? "") }.reduce(0, +)
        }
        return (count("video"), count("audio"))
    }

    @Test(.enabled(if: rigAvailable, "needs Xvfb, pulseaudio and ffmpeg"))
    func appFramesAreStreamedAndRecordedAndThePlayerShowsThem() throws {
        let bin = try Self.build()
        let dir = try Tools.temporaryDirectory("examples")
        defer { try? FileManager.default.removeItem(at: dir) }
        let received = dir.appendingPathComponent("received.ts").path
        let recording = dir.appendingPathComponent("local.mp4").path
        // An independent receiver: ffmpeg copying what arrives on the UDP port, waited for until it
        // holds the port.
        let (receiver, port) = try StreamTestPorts.peer(udp: true) { port in
            try StreamTestProcess(
                "ffmpeg",
                [
                    "-hide_banner", "-y", "-probesize", "500000", "-analyzeduration", "1000000",
                    "-i", "udp://127.0.0.1:\(port)?timeout=10000000",
                    "-c", "copy", "-flush_packets", "1", "-f", "mpegts", received,
                ],
                stderrPath: dir.appendingPathComponent("ffmpeg.log").path)
        }
        let streamed = try Tools.run(
            bin.appendingPathComponent("StreamAppFrames").path,
            ["udp://127.0.0.1:\(port)", recording, "6"])
        #expect(streamed.status == 0, "\(streamed.stdoutText) \(streamed.stderr)")
        // ffmpeg ends by itself 10 s after the last datagram (its input's timeout, which also bounds
        // the wait for the first: 3 s was too short for a loaded machine once), finishing its file.
        #expect(receiver.wait(timeout: 30), "the receiver did not end")
        // The recording has every encoded frame (6 s at 30 fps, less what a loaded machine dropped) and the tone.
        let report = streamed.stdoutText.split(separator: "\n").first { $0.hasPrefix("sent ") } ?? ""
        let sent = Int(report.split(separator: " ").dropFirst().first ?? "") ?? -1
        let local = try Self.frames(recording)
        #expect(local.video == sent && sent >= 150, "\(local) of \(sent) sent: \(streamed.stdoutText)")
        #expect(local.audio >= 270, "\(local.audio) AAC frames (6 s is about 281)")
        // The receiver got the stream (from the first keyframe it saw; keyframes come every 2 s)
        // and it decodes without an error.
        let receiverLog = (try? String(contentsOf: dir.appendingPathComponent("ffmpeg.log"), encoding: .utf8)) ?? ""
        guard let remote = try? Self.frames(received) else {
            Issue.record("the receiver's file does not open: \(receiverLog.suffix(1500))")
            return
        }
        #expect(remote.video >= sent - 70 && remote.audio > 0, "received \(remote) of \(sent)")
        for file in [recording, received] {
            let decoded = try Tools.run("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(file): \(decoded.stderr)")
        }

        // The player example shows the recording in a window on a private display, with sound.
        let display = try TestXServer(width: 640, height: 360)
        defer { display.stop() }
        let pulse = try TestPulseServer()
        defer { pulse.stop() }
        let played = try Tools.run(
            "env",
            [
                "DISPLAY=\(display.display)", "SDL_VIDEODRIVER=x11", "SDL_AUDIODRIVER=pulseaudio",
                "PULSE_SERVER=\(pulse.server)", bin.appendingPathComponent("MiniPlayer").path, recording,
            ])
        #expect(played.status == 0, "\(played.stdoutText) \(played.stderr)")
        let summary = played.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        let shownFrames = Int(summary.split(separator: ":").dropFirst().first?.split(separator: " ").first ?? "") ?? 0
        #expect(summary.contains("0 decode errors") && summary.contains("shown: true"), "\(played.stdoutText)")
        #expect(shownFrames >= sent - 2, "\(summary)")
    }
}
#endif
