#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// Whether the test environment's Python has onvif-zeep-async and httpx.
enum ONVIFClientPython {
    static var installed: Bool { (try? Tools.run(Tools.aiortcPython, ["-c", "import onvif, httpx"]).status) == 0 }
}

/// `onair serve --onvif` as Home Assistant adopts it: its library, onvif-zeep-async (PyPI, in
/// scripts/setup.sh's virtual environment), runs the integration's setup sequence
/// (Tests/Tools/onvif_client.py) against a server with a main and a sub stream; ffprobe opens the
/// stream URIs it was given with the user's credentials; the snapshot URI gives a JPEG over HTTP
/// Digest; a wrong password and a replayed nonce are refused with `ter:NotAuthorized`; a second
/// start keeps the serial number and the MAC address. Ports are the system's choice (port 0),
/// read back from the server's status lines.
@Suite(.enabled(if: ONVIFClientPython.installed, "onvif-zeep-async is not installed (scripts/setup.sh)"))
struct ONVIFHomeAssistantTests {
    static let token = "onvif-s3cret"

    static var client: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/onvif_client.py").path
    }

    /// A running server: its ONVIF and RTSP ports read from its status lines (ONVIF's: the serve
    /// listener's, or with `--onvif-listen` in `extra` that listener's).
    struct Server {
        let process: StreamTestProcess
        let port: Int
        let rtspPort: Int

        init(state: URL, log: String, extra: [String] = []) throws {
            process = try StreamTestProcess(
                "/usr/bin/env",
                [
                    "STATE_DIRECTORY=" + state.path, Tools.onairExecutable, "serve", "--listen", "127.0.0.1:0", "--rtsp-port", "0",
                    "--token", ONVIFHomeAssistantTests.token, "--onvif", "--size", "640x360", "--fps", "15", "--preset", "ultrafast",
                    "--bitrate", "800k", "--sub-size", "320x180", "--sub-fps", "5", "--duration", "60",
                ] + extra, stderrPath: log)
            let process = self.process
            let found = { (pattern: String) -> Int? in
                guard let range = process.stderr.range(of: pattern, options: .regularExpression) else { return nil }
                return Int(process.stderr[range].split(separator: ":").last?.split(separator: "/").first ?? "")
            }
            let onvif =
                extra.contains("--onvif-listen")
                ? "ONVIF over plain HTTP: http://127\\.0\\.0\\.1:[0-9]+/onvif" : "http://127\\.0\\.0\\.1:[0-9]+/live\\.ts"
            var ports: (Int, Int)?
            let started = waitUntil(timeout: 20) {
                guard let http = found(onvif), let rtsp = found("rtsp://127\\.0\\.0\\.1:[0-9]+/live")
                else { return !process.process.isRunning }
                ports = (http, rtsp)
                return true
            }
            guard started, let ports else { throw StreamTestError("onair serve did not start: \(process.stderr)") }
            (port, rtspPort) = ports
        }
    }

    /// onvif_client.py's JSON for `arguments`.
    static func client(_ port: Int, _ arguments: [String] = [], password: String = token) throws -> [String: Any] {
        let result = try Tools.run(
            Tools.aiortcPython,
            [client, "--host", "127.0.0.1", "--port", "\(port)", "--user", "onair", "--password", password] + arguments, timeout: 60)
        let line = result.stdoutText.split(separator: "\n").last.map(String.init) ?? ""
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(parsed, "onvif_client.py printed no JSON: \(result.stdoutText) \(result.stderr)")
    }

    @Test func homeAssistantAdoptsBothStreams() throws {
        let dir = try Tools.temporaryDirectory("onvif-ha")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state")
        var server: Server? = try Server(state: state, log: dir.appendingPathComponent("serve.log").path)
        defer { server?.process.kill() }
        let port = try #require(server?.port), rtspPort = try #require(server?.rtspPort)
        let setup = try Self.client(port)
        #expect(setup["error"] == nil && setup["fault"] == nil, "\(setup)")
        #expect((setup["clock_skew_s"] as? Double ?? 99) < 5)
        let serial = (setup["device"] as? [String: Any])?["serial"] as? String
        let kept = try String(contentsOf: state.appendingPathComponent("onvif-device-uuid"), encoding: .utf8)
        #expect(serial == kept.trimmingCharacters(in: .whitespacesAndNewlines))
        let profiles = setup["profiles"] as? [[String: Any]] ?? []
        #expect(profiles.map { $0["token"] as? String } == ["main", "sub"])
        #expect(profiles.map { $0["encoding"] as? String } == ["H264", "H264"])
        #expect(profiles.map { [$0["width"] as? Int, $0["height"] as? Int] } == [[640, 360], [320, 180]])
        #expect(profiles.map { $0["fps"] as? Int } == [15, 5])
        #expect(profiles.map { $0["stream_uri"] as? String } == ["rtsp://127.0.0.1:\(rtspPort)/live", "rtsp://127.0.0.1:\(rtspPort)/sub"])
        let snapshot = setup["snapshot"] as? [String: Any]
        #expect(snapshot?["status"] as? Int == 200 && snapshot?["jpeg"] as? Bool == true, "\(setup)")
        let reboot = (setup["reboot_fault"] as? [String: Any])?["subcodes"] as? [String]
        #expect(reboot?.first?.hasSuffix("}ActionNotSupported") == true, "\(setup)")
        // ffprobe opens each stream URI with the user's credentials, as Home Assistant passes them on.
        for (profile, size) in zip(profiles, [[640, 360], [320, 180]]) {
            let uri = (profile["stream_uri"] as? String ?? "").replacingOccurrences(of: "rtsp://", with: "rtsp://onair:\(Self.token)@")
            let probe = try Tools.run(
                "ffprobe",
                [
                    "-v", "error", "-rtsp_transport", "tcp", "-select_streams", "v", "-show_entries", "stream=codec_name,width,height",
                    "-of", "csv=p=0", uri,
                ],
                timeout: 30)
            #expect(probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,\(size[0]),\(size[1])", "\(probe.stderr)")
        }
        // A wrong password: the fault Home Assistant reads as an authentication error.
        let refused = try Self.client(port, password: "wrong")
        let subcodes = (refused["fault"] as? [String: Any])?["subcodes"] as? [String]
        #expect(subcodes?.first?.hasSuffix("}NotAuthorized") == true, "\(refused)")
        // The same digest request again from another address: a replay.
        let replay = (try Self.client(port, ["--replay"])["replay"] as? [[String: Any]]) ?? []
        #expect(replay.map { $0["status"] as? Int } == [200, 400])
        #expect((replay.last?["body"] as? String)?.contains("ter:NotAuthorized") == true)
        #expect(server?.process.stderr.contains("onair auth: failed from 127.0.0.1 (onvif-wsse)") == true)
        #expect(server?.process.stderr.contains("onair auth: failed from 127.0.0.2 (onvif-wsse)") == true)
        // A restart keeps the identity Home Assistant keys the camera on.
        server?.process.kill()
        _ = server?.process.wait(timeout: 10)
        server = try Server(state: state, log: dir.appendingPathComponent("serve2.log").path)
        let again = try Self.client(try #require(server?.port))
        #expect(((again["device"] as? [String: Any])?["serial"] as? String) == serial)
        #expect((again["mac"] as? String) == (setup["mac"] as? String))
    }

    /// HTTPS only on the serve listener, ONVIF on a plain-HTTP listener of its own
    /// (`--onvif-listen`): Home Assistant's library adopts the camera there with `http://`
    /// addresses, fetches the snapshot over HTTP Digest from it, and that listener serves nothing
    /// but ONVIF.
    @Test func homeAssistantAdoptsItOnTheONVIFListenerBesideTLS() throws {
        let dir = try Tools.temporaryDirectory("onvif-listen")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try Server(
            state: dir.appendingPathComponent("state"), log: dir.appendingPathComponent("serve.log").path,
            extra: ["--tls-self-signed", "--onvif-listen", "127.0.0.1:0"])
        defer { server.process.kill() }
        #expect(server.process.stderr.contains("https://127.0.0.1:"), "\(server.process.stderr)")
        let setup = try Self.client(server.port)
        #expect(setup["error"] == nil && setup["fault"] == nil, "\(setup)")
        let xaddrs = setup["xaddrs"] as? [String] ?? []
        #expect(!xaddrs.isEmpty && xaddrs.allSatisfy { $0.hasPrefix("http://127.0.0.1:\(server.port)/onvif/") }, "\(xaddrs)")
        let profiles = setup["profiles"] as? [[String: Any]] ?? []
        #expect(profiles.map { $0["encoding"] as? String } == ["H264", "H264"])
        // This client is on loopback, where plain RTSP listens beside TLS.
        #expect(profiles.first?["stream_uri"] as? String == "rtsp://127.0.0.1:\(server.rtspPort)/live")
        let snapshot = setup["snapshot"] as? [String: Any]
        #expect(snapshot?["status"] as? Int == 200 && snapshot?["jpeg"] as? Bool == true, "\(setup)")
        let other = try Tools.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/live.ts"])
        #expect(other.stdoutText == "404")
    }
}
#endif
