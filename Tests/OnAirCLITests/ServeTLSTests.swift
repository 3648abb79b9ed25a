#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair serve` over HTTPS: a test CA made here with openssl signs the server's certificate
/// (subjectAltName IP:127.0.0.1), and independent clients check it: ffmpeg with `-tls_verify 1`,
/// `openssl s_client` for the protocol versions, curl for plain HTTP on the TLS port.
@Suite(.serialized) struct ServeTLSTests {
    /// A CA and a server key and certificate it signed, in `directory`.
    struct TestCA {
        let ca: String, certificate: String, key: String

        init(_ directory: URL, name: String = "ca", subjectAltName: String = "IP:127.0.0.1") throws {
            func path(_ file: String) -> String { directory.appendingPathComponent("\(name)-\(file)").path }
            ca = path("ca.pem")
            certificate = path("server.pem")
            key = path("server-key.pem")
            let steps: [[String]] = [
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                    path("ca-key.pem"), "-out", ca, "-days", "2", "-subj", "/CN=OnAir test CA \(name)",
                ],
                [
                    "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out",
                    path("server.csr"), "-subj", "/CN=127.0.0.1",
                ],
                [
                    "x509", "-req", "-in", path("server.csr"), "-CA", ca, "-CAkey", path("ca-key.pem"), "-CAcreateserial",
                    "-days", "2", "-out", certificate, "-extfile", path("ext.cnf"),
                ],
            ]
            try "subjectAltName=\(subjectAltName)\nextendedKeyUsage=serverAuth\n".write(
                toFile: path("ext.cnf"), atomically: true, encoding: .utf8)
            for step in steps {
                let result = try Tools.run("openssl", step)
                guard result.status == 0 else { throw StreamTestError("openssl \(step[0]): \(result.stderr)") }
            }
        }
    }

    /// What `openssl s_client` prints for a handshake with `arguments` (stdin closed at once).
    static func handshake(_ port: Int, _ arguments: [String]) throws -> String {
        let result = try Tools.run(
            "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + arguments, stdin: Data())
        return String(decoding: result.stdout, as: UTF8.self) + result.stderr
    }

    @Test func httpsStreamsVerifyAgainstTheCAWithTLS13AndRefuseTLS11AndPlainHTTP() throws {
        let dir = try Tools.temporaryDirectory("serve-tls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try TestCA(dir)
        let other = try TestCA(dir, name: "other")
        let server = try ServeTestServer(
            directory: dir, duration: 30,
            arguments: [
                "--tls-cert", ca.certificate, "--tls-key", ca.key, "--keyint-duration", "1", "--token", "tls-s3cret-42",
                "--redirect-listen", "127.0.0.1:0",
            ])
        let redirectPort = try server.announcedPort("plain HTTP on port ")
        let url = "https://127.0.0.1:\(server.port)/live.ts"
        let bearer = ["-headers", "Authorization: Bearer tls-s3cret-42\r\n"]
        // ffmpeg checks the chain and the address against the CA, and decodes two seconds cleanly.
        let played = try Tools.run(
            "ffmpeg",
            ["-hide_banner", "-nostdin", "-v", "error", "-ca_file", ca.ca, "-tls_verify", "1"] + bearer + [
                "-i", url, "-t", "2", "-f", "null", "-",
            ])
        #expect(played.status == 0 && played.stderr.isEmpty, "ffmpeg over HTTPS: \(played.stderr)")
        // The same against another CA is refused (the check is real).
        let refused = try Tools.run(
            "ffmpeg",
            ["-hide_banner", "-nostdin", "-v", "error", "-ca_file", other.ca, "-tls_verify", "1"] + bearer
                + ["-i", url, "-t", "1", "-f", "null", "-"])
        #expect(refused.status != 0, "ffmpeg accepted a certificate from another CA")

        let modern = try Self.handshake(server.port, ["-CAfile", ca.ca, "-verify_return_error", "-tls1_3"])
        #expect(modern.contains("New, TLSv1.3"), "no TLS 1.3 handshake: \(modern)")
        #expect(modern.contains("Verify return code: 0 (ok)"), "\(modern)")
        let twelve = try Self.handshake(server.port, ["-CAfile", ca.ca, "-verify_return_error", "-tls1_2"])
        #expect(twelve.contains("New, TLSv1.2"), "no TLS 1.2 handshake: \(twelve)")
        // OpenSSL 3 refuses TLS 1.1 by itself at its default security level: level 0 lets it offer it,
        // so what refuses here is the server (libmicrohttpd closes the handshake, no session).
        let old = try Self.handshake(server.port, ["-cipher", "DEFAULT:@SECLEVEL=0", "-tls1_1"])
        #expect(!old.contains("New, TLSv1.1") && old.contains("Cipher is (NONE)"), "TLS 1.1 was not refused: \(old)")

        // Plain HTTP on the TLS port: not a byte of media, no HTTP answer.
        let plain = try Tools.run("curl", ["-s", "-m", "5", "-o", "-", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/live.ts"])
        #expect(String(decoding: plain.stdout, as: UTF8.self) == "000", "plain HTTP got an answer")
        // The redirecting port: a 308 to the same path over HTTPS, the query (with its token) left
        // behind, and no media in clear.
        let redirected = try Tools.run(
            "curl",
            [
                "-s", "-m", "5", "-o", dir.appendingPathComponent("redirect.body").path, "-w", "%{http_code} %{redirect_url}",
                "http://127.0.0.1:\(redirectPort)/live.ts?token=tls-s3cret-42",
            ])
        #expect(
            String(decoding: redirected.stdout, as: UTF8.self) == "308 https://127.0.0.1:\(server.port)/live.ts",
            "\(String(decoding: redirected.stdout, as: UTF8.self))")
        let body = (try? Data(contentsOf: dir.appendingPathComponent("redirect.body"))) ?? Data()
        #expect(body.count < 64, "the redirect carried \(body.count) bytes")
        server.process.kill()
        #expect(server.process.stderr.contains("plain HTTP on port \(redirectPort) redirects to HTTPS"), "\(server.process.stderr)")
        // The token is never printed (the serving line shows ?token=…).
        #expect(server.process.stderr.contains("serving https://127.0.0.1:\(server.port)/live.ts?token=…"), "\(server.process.stderr)")
        #expect(!server.process.stderr.contains("tls-s3cret-42"))
    }

    @Test func selfSignedCertificateIsMadeOnceNamesLocalhostAndPrintsItsFingerprint() throws {
        let dir = try Tools.temporaryDirectory("serve-tls-self")
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        func start(_ run: Int) throws -> (StreamTestProcess, Int) {
            let process = try StreamTestProcess(
                "env",
                [
                    "STATE_DIRECTORY=\(state)", Tools.onairExecutable, "serve", "--listen", "127.0.0.1:0", "--tls-self-signed",
                    "--duration", "20", "--size", "160x120", "--fps", "10", "--preset", "ultrafast",
                ],
                stderrPath: dir.appendingPathComponent("serve\(run).log").path)
            let port = try process.announcedPort("serving https://127.0.0.1:")
            #expect(waitUntil(timeout: 20) { StreamTestPorts.accepts(port) }, "onair serve did not listen: \(process.stderr)")
            return (process, port)
        }
        func printed(_ log: String) -> String? {
            log.split(separator: "\n").first { $0.contains("fingerprint: ") }.map { String($0.split(separator: " ").last ?? "") }
        }
        let (first, port) = try start(1)
        let certificate = state + "/tls-cert.pem"
        let fingerprint = try Tools.run("openssl", ["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"]).stdoutText
        let text = try Tools.run("openssl", ["x509", "-in", certificate, "-noout", "-text"]).stdoutText
        #expect(text.contains("IP Address:127.0.0.1") && text.contains("DNS:localhost"), "\(text)")
        #expect(text.contains("prime256v1") || text.contains("P-256"), "not an ECDSA P-256 key: \(text)")
        let expected = fingerprint.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(printed(first.stderr) == expected, "printed \(printed(first.stderr) ?? "nothing"), openssl says \(expected ?? "")")
        #expect(first.stderr.contains("made a self-signed certificate"))
        let keyMode = try FileManager.default.attributesOfItem(atPath: state + "/tls-key.pem")[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        // The certificate verifies as its own CA for 127.0.0.1 and localhost (subjectAltName, not CN).
        let seen = try Self.handshake(port, ["-CAfile", certificate, "-verify_return_error", "-verify_hostname", "localhost"])
        #expect(seen.contains("Verify return code: 0 (ok)"), "\(seen)")
        first.kill()
        // A second start keeps the same certificate (a pinned fingerprint stays valid).
        let (second, _) = try start(2)
        #expect(waitUntil(timeout: 10) { printed(second.stderr) != nil })
        #expect(printed(second.stderr) == expected)
        #expect(!second.stderr.contains("made a self-signed certificate"))
        second.kill()
    }

    /// The SHA-256 fingerprint of a certificate file.
    static func fingerprint(ofFile path: String) throws -> String {
        try TLSFingerprint.of(pem: String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func sighupReloadsTheCertificateForNewConnectionsWhileAViewerContinues() throws {
        let dir = try Tools.temporaryDirectory("serve-tls-reload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try TestCA(dir)
        let renewed = try TestCA(dir, name: "renewed")
        let certificate = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        try FileManager.default.copyItem(atPath: ca.certificate, toPath: certificate)
        try FileManager.default.copyItem(atPath: ca.key, toPath: key)
        let server = try ServeTestServer(
            directory: dir, duration: 30,
            arguments: ["--tls-cert", certificate, "--tls-key", key, "--keyint-duration", "1", "--rtsps-port", "0"])
        defer { server.process.kill() }
        let rtsps = try server.announcedPort("RTSPS: rtsps://")
        #expect(try TLSFingerprint.presented(port: server.port) == Self.fingerprint(ofFile: ca.certificate))
        #expect(try TLSFingerprint.presented(port: rtsps) == Self.fingerprint(ofFile: ca.certificate))
        let recording = dir.appendingPathComponent("viewer.ts").path
        let viewer = try StreamTestProcess(
            "ffmpeg",
            [
                "-hide_banner", "-nostdin", "-v", "error", "-ca_file", ca.ca, "-tls_verify", "1",
                "-i", "https://127.0.0.1:\(server.port)/live.ts", "-t", "6", "-c", "copy", "-y", recording,
            ],
            stderrPath: dir.appendingPathComponent("viewer.log").path)
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: recording))?[.size] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 15) { size() > 20_000 }, "the viewer got nothing: \(viewer.stderr)")
        // Renewal: new files in place, then SIGHUP.
        try FileManager.default.removeItem(atPath: certificate)
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.copyItem(atPath: renewed.certificate, toPath: certificate)
        try FileManager.default.copyItem(atPath: renewed.key, toPath: key)
        kill(server.process.process.processIdentifier, SIGHUP)
        #expect(waitUntil(timeout: 10) { server.process.stderr.contains("SIGHUP: TLS certificate reloaded") }, "\(server.process.stderr)")
        #expect(try TLSFingerprint.presented(port: server.port) == Self.fingerprint(ofFile: renewed.certificate))
        #expect(
            try TLSFingerprint.presented(port: rtsps) == Self.fingerprint(ofFile: renewed.certificate), "RTSPS kept the old certificate")
        // The viewer from before the renewal plays on to its end, with no error.
        #expect(viewer.wait(timeout: 20))
        #expect(viewer.process.terminationStatus == 0 && viewer.stderr.isEmpty, "\(viewer.stderr)")
        let frames = try Tools.run(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                recording,
            ])
        let count = frames.stdoutText.split(whereSeparator: \.isNewline).compactMap { Int($0) }.first ?? 0
        #expect(count >= 80, "the viewer's 6 s hold \(count) frames at 15 fps")
    }
}
#endif
