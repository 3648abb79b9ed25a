#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --webrtc` at 640x360 30 fps with 16 aiortc WHEP viewers (Tests/Tools/whep_viewers.py,
/// two processes of eight, one viewer of each decoding, the others counting the frames aiortc
/// reassembles) beside 4 HTTP viewers (two MPEG-TS, two fragmented MP4) and a local recording, and
/// one more WHEP viewer killed with SIGKILL, which never sends its DELETE.
@Suite(.serialized) struct ServeWebRTCLoadTests {
    static let viewers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/whep_viewers.py").path

    /// The WebRTC viewers /stats.json lists now.
    static func listed(_ server: ServeTestServer) -> [[String: Any]] {
        (try? ServeWebRTCTests.webRTCViewers(server)) ?? []
    }

    @Test(
        .longTier,
        .enabled(if: ServeWebRTCTests.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func sixteenWebRTCViewersBesideFourHTTPViewersGetNearlyEveryFrameAndAKilledOneIsDropped() throws {
        let dir = try Tools.temporaryDirectory("serve-webrtc-load")
        defer { try? FileManager.default.removeItem(at: dir) }
        let recording = dir.appendingPathComponent("rec.ts").path
        let statsPath = dir.appendingPathComponent("stats.jsonl").path
        let server = try ServeTestServer(
            directory: dir, duration: 70,
            arguments: [
                "--webrtc", "--size", "640x360", "--fps", "30", "--bitrate", "1M", "--keyint-duration", "1",
                "--max-viewers", "40", "-o", recording, "--stats-json", statsPath,
            ])
        let whep = server.url("/whep")

        // The one that vanishes: it receives, then is killed without a word.
        let doomed = try StreamTestProcess(
            Tools.aiortcPython, [Self.viewers, "--url", whep, "--count", "1", "--decode", "0", "--seconds", "60"],
            stderrPath: dir.appendingPathComponent("doomed.log").path)
        #expect(
            waitUntil(timeout: 20) {
                Self.listed(server).first?["live"] as? Bool == true && (Self.listed(server).first?["frames_sent"] as? Int ?? 0) > 30
            },
            "the first viewer did not get going: \(Self.listed(server)) \(doomed.stderr)")
        let doomedID = Self.listed(server).first?["id"] as? String
        // SIGKILL: the viewer gets no chance to say goodbye.
        _ = try Tools.run("kill", ["-KILL", "\(doomed.process.processIdentifier)"])
        let killed = DispatchTime.now()

        let seconds = 20
        let http = try ["ts", "ts", "mp4", "mp4"].enumerated().map { index, format in
            try StreamTestProcess(
                "curl",
                ["-s", "-m", "\(seconds)", "-o", dir.appendingPathComponent("http\(index).\(format)").path, server.url("/live.\(format)")],
                stderrPath: dir.appendingPathComponent("http\(index).log").path)
        }
        let groups = try (0..<2).map { group in
            try StreamTestProcess(
                Tools.aiortcPython,
                [Self.viewers, "--url", whep, "--count", "8", "--decode", "1", "--seconds", "\(seconds)", "--stagger", "0.2"],
                stderrPath: dir.appendingPathComponent("viewers\(group).log").path,
                stdoutPath: dir.appendingPathComponent("viewers\(group).json").path)
        }
        #expect(waitUntil(timeout: 15) { Self.listed(server).count >= 17 }, "\(Self.listed(server).count) WebRTC viewers listed")
        let during = Self.listed(server)
        for group in groups { #expect(group.wait(timeout: Double(seconds + 40)), "viewers did not finish: \(group.stderr)") }
        for process in http { _ = process.wait(timeout: Double(seconds + 10)) }

        // The killed viewer: gone within the consent timeout (30 s without RTCP, checked four times
        // a second) and five seconds to spare; the others left by DELETE.
        let dropped = waitUntil(timeout: 45) { Self.listed(server).isEmpty }
        let after = Double(DispatchTime.now().uptimeNanoseconds - killed.uptimeNanoseconds) / 1e9
        print("the SIGKILLed viewer was dropped \(after) s after")
        #expect(dropped && after <= 35, "still listed \(after) s after SIGKILL: \(Self.listed(server))")
        #expect(after >= 25, "dropped \(after) s after SIGKILL, before the consent timeout")
        #expect(
            doomedID != nil && during.contains { $0["id"] as? String == doomedID }, "the killed viewer was not listed beside the others")
        #expect(server.finish(timeout: 60), "serve did not stop at its duration: \(server.process.stderr)")

        // What the encoder made: the recording has every frame of it.
        let final = try RecordCommandTests.finalStatistics(statsPath)
        let encoded = final["frames_out"] as? Int ?? 0
        let elapsed = final["elapsed"] as? Double ?? 1
        let recorded = try ServeCommandTests.videoCoverage(recording, fps: 30)
        #expect(recorded.frames >= 900 && recorded.frames == encoded, "recording \(recorded), encoded \(encoded)")
        // The encoder's own rate (below 30 fps when the shared machine is loaded): each viewer gets
        // 95 % of what it made while the viewer received.
        let rate = Double(encoded) / elapsed
        var summaries: [[String: Any]] = []
        for group in 0..<2 {
            let text = (try? String(contentsOfFile: dir.appendingPathComponent("viewers\(group).json").path, encoding: .utf8)) ?? ""
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            summaries += object?["viewers"] as? [[String: Any]] ?? []
        }
        print("encoder \(encoded) frames in \(elapsed) s (\(rate) fps); WebRTC viewers:")
        for summary in summaries { print("  \(summary)") }
        #expect(summaries.count == 16)
        for summary in summaries {
            #expect(summary["status"] as? Int == 201 && summary["delete_status"] as? Int == 200, "\(summary)")
            let span = summary["span_seconds"] as? Double ?? 0
            let frames = summary["video_frames"] as? Int ?? 0
            #expect(span >= Double(seconds) - 5, "received for \(span) s only: \(summary)")
            #expect(Double(frames) >= 0.95 * rate * span, "\(frames) frames in \(span) s at \(rate) fps: \(summary)")
            if summary["decoded"] as? Bool == true {
                #expect(summary["decode_errors"] as? Int == 0 && summary["corrupt_frames"] as? Int == 0, "\(summary)")
            }
        }
        for (index, format) in ["ts", "ts", "mp4", "mp4"].enumerated() {
            let path = dir.appendingPathComponent("http\(index).\(format)").path
            let coverage = try ServeCommandTests.videoCoverage(path, fps: 30)
            print("\(path): \(coverage)")
            // curl's 20 s include its connection; the viewer starts from the cached keyframe.
            #expect(Double(coverage.frames) >= 0.95 * rate * Double(seconds - 1), "\(path): \(coverage)")
            let errors = try ServeCommandTests.decodeErrors(path)
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }
}
#endif
