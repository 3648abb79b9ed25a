#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve --rtsps-port`: RTSP over TLS with the HTTPS certificate, checked by clients nobody
/// here wrote — GStreamer's rtspsrc with a TLS database holding the test CA (FFmpeg 5.1 does not
/// check an rtsps:// certificate), `openssl s_client` for the chain and the protocol versions —
/// plus the users of the config file logging in with Basic, and failed logins counted per address.
@Suite(.serialized) struct ServeRTSPSTests {
    /// `Tests/Tools/rtsps_play.py`'s verdict: decoded video frames and the first error.
    static func play(_ url: String, ca: String, seconds: Int, user: String, password: String, protocols: String = "tcp") throws
        -> (frames: Int, error: String?)
    {
        let script = Tools.packageRoot.appendingPathComponent("Tests/Tools/rtsps_play.py").path
        let result = try Tools.run(
            "env", ["RTSPS_PROTOCOLS=\(protocols)", "/usr/bin/python3", script, url, ca, "\(seconds)", user, password],
            timeout: Double(seconds + 30))
        let line = result.stdoutText.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        let json = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return (json?["frames"] as? Int ?? -1, json?["error"] as? String ?? (json == nil ? "no verdict: \(result.stderr)" : nil))
    }

    /// ffprobe's error output for `url` (empty when it read the streams).
    static func probe(_ url: String) throws -> String {
        let result = try Tools.run(
            "ffprobe", ["-v", "error", "-rw_timeout", "5000000", "-show_entries", "stream=codec_name", url], timeout: 20)
        return result.status == 0 ? "" : result.stderr + " (status \(result.status))"
    }

    @Test func rtspsCarriesTheMediaInsideTLSToACheckingClientAndUsersLogInWithBasic() throws {
        let dir = try Tools.temporaryDirectory("serve-rtsps")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try ServeTLSTests.TestCA(dir)
        let other = try ServeTLSTests.TestCA(dir, name: "other")
        func hash(_ password: String) throws -> String {
            try Tools.run(Tools.onairExecutable, ["hash-password"], stdin: Data("\(password)\n".utf8)).stdoutText
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let config = dir.appendingPathComponent("onair.yml").path
        try """
        users:
          - name: alice
            password: "\(try hash("alice-pw"))"
            permissions: [read]
          - name: meter
            password: "\(try hash("meter-pw"))"
            permissions: [metrics]
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeTestServer(
            directory: dir, duration: 60,
            arguments: [
                "--config", config, "--tls-cert", ca.certificate, "--tls-key", ca.key, "--rtsps-port", "0",
                "--rtsp-port", "0", "--token", "rtsps-t0ken-77", "--keyint-duration", "1",
            ])
        defer { server.process.kill() }
        // Both faces on port 0: the bound ports from serve's "RTSPS:" and "RTSP:" lines.
        let rtsps = try server.announcedPort("RTSPS: rtsps://"), plain = try server.announcedPort("RTSP: rtsp://")
        #expect(waitUntil(timeout: 10) { StreamTestPorts.accepts(rtsps) }, "no RTSPS listener: \(server.process.stderr)")
        let url = "rtsps://127.0.0.1:\(rtsps)/live"

        // GStreamer checks the certificate against the test CA and decodes 3 s (15 fps) as alice.
        let played = try Self.play(url, ca: ca.ca, seconds: 3, user: "alice", password: "alice-pw")
        #expect(played.error == nil && played.frames >= 20, "rtspsrc with the CA: \(played)")
        // The same client trusting another CA refuses the server: the check is real.
        let distrusted = try Self.play(url, ca: other.ca, seconds: 3, user: "alice", password: "alice-pw")
        #expect(distrusted.error != nil && distrusted.frames == 0, "rtspsrc accepted a certificate of another CA: \(distrusted)")
        // Media over UDP beside the TLS connection is not offered: only interleaved inside it.
        let udp = try Self.play(url, ca: ca.ca, seconds: 3, user: "alice", password: "alice-pw", protocols: "udp")
        #expect(udp.error != nil && udp.frames == 0, "RTSPS sent media over UDP: \(udp)")

        // openssl: the chain verifies, TLS 1.3 is spoken, and no TLS 1.1 session is made.
        let modern = try ServeTLSTests.handshake(rtsps, ["-CAfile", ca.ca, "-verify_return_error", "-tls1_3"])
        #expect(modern.contains("New, TLSv1.3") && modern.contains("Verify return code: 0 (ok)"), "\(modern)")
        let old = try Tools.run(
            "openssl",
            ["s_client", "-connect", "127.0.0.1:\(rtsps)", "-cipher", "DEFAULT:@SECLEVEL=0", "-tls1_1"], stdin: Data(), timeout: 3)
        #expect(!old.stdoutText.contains("New, TLSv1.1"), "a TLS 1.1 session: \(old.stdoutText)")

        // Users: alice plays over RTSPS with ffmpeg (Basic inside TLS), and over plain RTSP, which
        // listens on loopback; a user without `read` and a wrong password are refused.
        #expect(try Self.probe("rtsps://alice:alice-pw@127.0.0.1:\(rtsps)/live").isEmpty)
        #expect(try Self.probe("rtsp://alice:alice-pw@127.0.0.1:\(plain)/live").isEmpty)
        #expect(try Self.probe("rtsps://onair:rtsps-t0ken-77@127.0.0.1:\(rtsps)/live").isEmpty)
        #expect(try Self.probe("rtsps://meter:meter-pw@127.0.0.1:\(rtsps)/live").contains("401"))
        #expect(try Self.probe("rtsps://alice:wrong@127.0.0.1:\(rtsps)/live").contains("401"))
        #expect(server.process.stderr.contains("onair auth: failed from 127.0.0.1 (basic)"), "\(server.process.stderr)")

        // Ten failures in a minute block the address: then even the right password gets 403.
        for _ in 0..<10 { _ = try Self.probe("rtsp://alice:wrong@127.0.0.1:\(plain)/live") }
        let blocked = try Self.probe("rtsp://alice:alice-pw@127.0.0.1:\(plain)/live")
        #expect(blocked.contains("403"), "after 10 failures: \(blocked)")
        #expect(server.process.stderr.contains("onair auth: blocked 127.0.0.1"), "\(server.process.stderr)")
        server.process.kill()
        #expect(server.process.stderr.contains("RTSPS: rtsps://127.0.0.1:\(rtsps)/live"), "\(server.process.stderr)")
        #expect(!server.process.stderr.contains("rtsps-t0ken-77") && !server.process.stderr.contains("alice-pw"))
    }
}
#endif
