#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --webrtc` with aiortc (PyPI) as an independent WHEP viewer (Tests/Tools/whep_client.py),
/// and curl for the requests WHEP must refuse. All on loopback: aiortc gets no ICE servers and host
/// candidates on 127.0.0.1 only; the server's candidates are on its listening address.
@Suite(.serialized) struct ServeWebRTCTests {
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/whep_client.py").path
    static var available: Bool {
        Tools.hasAiortc
            && (try? Tools.run("gst-inspect-1.0", ["webrtcbin"]).status) == 0
            && (try? Tools.run("gst-inspect-1.0", ["nicesrc"]).status) == 0
    }

    /// Runs the aiortc viewer against `server` and returns its JSON summary.
    static func view(
        _ server: ServeTestServer, seconds: Int, token: String? = nil, out: String? = nil,
        delete: Bool = true
    ) throws -> [String: Any] {
        try view(url: server.url("/whep"), seconds: seconds, token: token, out: out, delete: delete)
    }

    /// Runs the aiortc viewer against the WHEP endpoint `url` and returns its JSON summary.
    static func view(url: String, seconds: Int, token: String? = nil, out: String? = nil, delete: Bool = true) throws -> [String: Any] {
        var arguments = [client, "--url", url, "--seconds", "\(seconds)"] + (delete ? [] : ["--no-delete"])
        if let token { arguments += ["--token", token] }
        if let out { arguments += ["--out", out] }
        let result = try Tools.run(Tools.aiortcPython, arguments)
        let line = result.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw StreamTestError("whep_client printed no summary: \(result.stdoutText) \(result.stderr)")
        }
        return object
    }

    /// The status of a curl request to `server`.
    static func status(
        _ server: ServeTestServer, _ method: String, _ path: String, headers: [String] = [],
        body: String? = nil, bodyFile: String? = nil
    ) throws -> Int {
        var arguments = ["-s", "-o", "/dev/null", "-m", "10", "-w", "%{http_code}", "-X", method]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["--data-binary", body] }
        if let bodyFile { arguments += ["--data-binary", "@" + bodyFile] }
        return Int(try Tools.run("curl", arguments + [server.url(path)]).stdoutText) ?? -1
    }

    @Test(.enabled(if: available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func aiortcViewerDecodesPictureAndSoundInOrderAndInSync() throws {
        let dir = try Tools.temporaryDirectory("serve-webrtc-view")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 30, arguments: ["--webrtc", "--keyint-duration", "1"])
        let recording = dir.appendingPathComponent("viewer.nut").path
        let summary = try Self.view(server, seconds: 8, out: recording)
        #expect(summary["status"] as? Int == 201, "\(summary)")
        #expect(summary["delete_status"] as? Int == 200, "\(summary)")
        #expect((summary["location"] as? String)?.hasPrefix("/whep/") == true, "\(summary)")
        #expect(summary["decode_errors"] as? Int == 0, "\(summary)")
        // 8 s at 15 fps and 50 Opus frames a second; the first keyframe comes within a second of DTLS.
        #expect((summary["video_frames"] as? Int ?? 0) >= 90, "\(summary)")
        #expect((summary["audio_frames"] as? Int ?? 0) >= 300, "\(summary)")
        #expect((summary["size"] as? [Int]) == [320, 240], "\(summary)")
        let reports = summary["sender_reports"] as? [String: Int] ?? [:]
        #expect((reports["video"] ?? 0) > 0 && (reports["audio"] ?? 0) > 0, "no sender reports for lip sync: \(summary)")

        // The viewer's picture and sound as it would play them (RTCP-mapped), measured by onair probe --sync.
        let sync = try RecordCommandTests.syncReport(recording)
        #expect((sync["flashes"] as? Int ?? 0) >= 5, "\(sync)")
        #expect((sync["beeps"] as? Int ?? 0) >= 5, "\(sync)")
        #expect(sync["repeated_frames"] as? Int == 0, "frame codes out of order or repeated: \(sync)")
        // Gaps in the frame codes: no more than the capture and encoder dropped themselves (a loaded
        // machine makes them drop some; /stats.json counts them since the start), and two to spare.
        let encoder =
            (try JSONSerialization.jsonObject(with: server.get("/stats.json").body) as? [String: Any])?["encoder"] as? [String: Any]
        let upstream = (encoder?["dropped_frames"] as? Int ?? 0) + (encoder?["source_skipped_frames"] as? Int ?? 0)
        #expect((sync["dropped_frames"] as? Int ?? 99) <= upstream + 2, "\(sync); dropped before the viewer: \(upstream)")
        // Within a frame at 15 fps (sender reports map capture time; measured 13.5 ms at 30 fps, Opus pre-skip included).
        let offset = sync["max_av_offset_ms"] as? Double
        #expect(offset != nil && offset! <= 66.7, "A/V: \(sync)")
        // The session ended with the DELETE: /stats.json lists no WebRTC viewer any more.
        let stats = try server.get("/stats.json")
        let document = try JSONSerialization.jsonObject(with: stats.body) as? [String: Any]
        #expect((document?["webrtc_viewers"] as? [Any])?.isEmpty == true, "\(String(decoding: stats.body, as: UTF8.self))")
    }

    @Test(.enabled(if: available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func badOffersWrongTokensAndOthersSessionsAreRefusedWhileAViewerStillJoins() throws {
        let dir = try Tools.temporaryDirectory("serve-webrtc-refuse")
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = "s3cret-token"
        let server = try ServeTestServer(directory: dir, duration: 30, arguments: ["--webrtc", "--token", token])
        let bearer = "Authorization: Bearer \(token)", sdp = "Content-Type: application/sdp"
        #expect(try Self.status(server, "POST", "/whep", headers: [sdp], body: "v=0\r\n") == 401)
        // The refusal carries the CORS fields, so a page on another origin can read it.
        let crossOrigin = try Tools.run(
            "curl",
            [
                "-s", "-D", "-", "-o", "/dev/null", "-m", "10", "-X", "POST", "-H", sdp, "-H", "Origin: https://player.example",
                "--data-binary", "v=0\r\n", server.url("/whep"),
            ]
        ).stdoutText
        #expect(crossOrigin.hasPrefix("HTTP/1.1 401") && crossOrigin.contains("Access-Control-Allow-Origin: *"), "\(crossOrigin)")
        #expect(try Self.status(server, "POST", "/whep", headers: [sdp, "Authorization: Bearer wrong"], body: "v=0\r\n") == 401)
        #expect(try Self.status(server, "POST", "/whep", headers: [sdp, bearer], body: "this is not SDP") == 400)
        #expect(
            try Self.status(
                server, "POST", "/whep", headers: [sdp, bearer], body: "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n")
                == 400)
        #expect(try Self.status(server, "POST", "/whep", headers: ["Content-Type: text/plain", bearer], body: "v=0\r\n") == 415)
        let big = dir.appendingPathComponent("big.sdp")
        try Data(repeating: UInt8(ascii: "a"), count: 200_000).write(to: big)
        #expect(try Self.status(server, "POST", "/whep", headers: [sdp, bearer], bodyFile: big.path) == 413)
        #expect(try Self.status(server, "DELETE", "/whep/0123456789abcdef0123456789abcdef", headers: [bearer]) == 404)
        // PATCH (trickle ICE) is not supported: 405, but 404 on a session the server does not know
        // (how the preview page finds that a restarted server forgot its session).
        #expect(try Self.status(server, "PATCH", "/whep/0123456789abcdef0123456789abcdef", headers: [bearer]) == 404)
        #expect(try Self.status(server, "PATCH", "/whep", headers: [bearer]) == 405)
        #expect(try Self.status(server, "GET", "/whep", headers: [bearer]) == 405)
        #expect(
            try Self.status(server, "OPTIONS", "/whep", headers: ["Origin: https://player.example", "Access-Control-Request-Method: POST"])
                == 204)
        // The other faces keep their ?token= check.
        #expect(try server.get("/stats.json").status == 401)

        // A real viewer still joins and plays, with the token, after all of that.
        let summary = try Self.view(server, seconds: 4, token: token)
        #expect(summary["status"] as? Int == 201, "\(summary)")
        #expect((summary["video_frames"] as? Int ?? 0) >= 30, "\(summary)")
        #expect(summary["decode_errors"] as? Int == 0, "\(summary)")
        let wrong = try Self.view(server, seconds: 1, token: "nope")
        #expect(wrong["status"] as? Int == 401, "\(wrong)")  // wrong credentials: 401 (403 is for a missing permission)
    }

    /// The WebRTC viewers /stats.json lists now.
    static func webRTCViewers(_ server: ServeTestServer) throws -> [[String: Any]] {
        let stats = try server.get("/stats.json")
        let document = try JSONSerialization.jsonObject(with: stats.body) as? [String: Any]
        return document?["webrtc_viewers"] as? [[String: Any]] ?? []
    }

    @Test(.enabled(if: available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func maxViewersCountsWebRTCAcrossTransportsAndAViewerThatVanishesIsDroppedWithinTheConsentTimeout() throws {
        let dir = try Tools.temporaryDirectory("serve-webrtc-vanish")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 60, arguments: ["--webrtc", "--max-viewers", "1"])
        // Leaves without DELETE: its peer connection closes, its session stays until it goes silent.
        let first = try Self.view(server, seconds: 3, delete: false)
        #expect(first["status"] as? Int == 201, "\(first)")
        #expect((first["video_frames"] as? Int ?? 0) >= 15, "\(first)")
        let left = DispatchTime.now()
        #expect(try Self.webRTCViewers(server).count == 1)
        let second = try Self.view(server, seconds: 1)
        #expect(second["status"] as? Int == 503, "the one place is taken: \(second)")
        #expect(try Self.status(server, "GET", "/live.ts") == 503, "an HTTP viewer counts against the same --max-viewers")
        // Dropped once 30 s pass without RTCP (checked four times a second): allow 30 + 5 s from its leaving.
        let dropped = waitUntil(timeout: 40) { ((try? Self.webRTCViewers(server).count) ?? 1) == 0 }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - left.uptimeNanoseconds) / 1e9
        #expect(dropped && seconds <= 35, "still listed \(seconds) s after it left")
        #expect(seconds >= 25, "dropped after \(seconds) s, before the consent timeout")
        let third = try Self.view(server, seconds: 2)
        #expect(third["status"] as? Int == 201, "the place is free again: \(third)")
    }

    @Test(.enabled(if: available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func fourWebRTCViewersBesideTwoHTTPViewersEachGetNearlyEveryFrame() throws {
        let dir = try Tools.temporaryDirectory("serve-webrtc-many")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeTestServer(directory: dir, duration: 40, arguments: ["--webrtc", "--keyint-duration", "1"])
        let seconds = 8
        let http = try (0..<2).map { index in
            try StreamTestProcess(
                "curl",
                [
                    "-s", "-m", "\(seconds)", "-o", dir.appendingPathComponent("http\(index).ts").path,
                    server.url("/live.ts"),
                ],
                stderrPath: dir.appendingPathComponent("http\(index).log").path)
        }
        let results = NSLock()
        nonisolated(unsafe) var summaries: [[String: Any]] = []
        let whep = server.url("/whep")
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let summary = (try? Self.view(url: whep, seconds: seconds)) ?? [:]
            results.lock()
            summaries.append(summary)
            results.unlock()
        }
        for process in http { _ = process.wait(timeout: Double(seconds + 10)) }
        // The HTTP viewers, which start from the cached keyframe, show what the encoder made in those
        // 8 s (fewer than 120 frames when the shared machine is loaded). Each WebRTC viewer starts on a
        // keyframe soon after its answer (two seconds allowed: four Python viewers start at once on two
        // loaded cores): 95 % of that for the 6 s left.
        var httpFrames: [Int] = []
        for index in 0..<2 {
            let frames = try Tools.ffprobeJSON([
                "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                dir.appendingPathComponent("http\(index).ts").path,
            ])
            httpFrames.append(Int(((frames["streams"] as? [[String: Any]])?.first?["nb_read_frames"] as? String) ?? "") ?? 0)
        }
        #expect(httpFrames.allSatisfy { $0 >= 60 }, "HTTP viewers: \(httpFrames)")
        let made = Double(httpFrames.max() ?? 0)
        let wanted = Int((0.95 * made * Double(seconds - 2) / Double(seconds)).rounded(.down))
        #expect(summaries.count == 4)
        for summary in summaries {
            #expect(summary["status"] as? Int == 201, "\(summary)")
            #expect(summary["decode_errors"] as? Int == 0, "\(summary)")
            #expect(
                (summary["video_frames"] as? Int ?? 0) >= wanted,
                "\(summary["video_frames"] ?? "none") frames, \(wanted) wanted (HTTP viewers got \(httpFrames)): \(summary)")
        }
    }
}
#endif
