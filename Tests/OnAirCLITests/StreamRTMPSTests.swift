#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream rtmps://…`: RTMP inside TLS, through a TLS front (Tests/Tools/tls_relay.py, on
/// Python's ssl module) to a private nginx-rtmp, with certificates made by openssl at test time.
@Suite(.serialized) struct StreamRTMPSTests {
    static let relayScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tools/tls_relay.py").path
    static var available: Bool { StreamTestNginx.available && toolExists("openssl") && toolExists("python3") }

    /// A self-signed certificate for `subjectAltName`; returns (certificate, key) paths.
    static func certificate(in dir: URL, name: String, subjectAltName: String) throws -> (String, String) {
        let cert = dir.appendingPathComponent("\(name).pem").path, key = dir.appendingPathComponent("\(name).key").path
        let result = try Tools.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                "-days", "2", "-subj", "/CN=onair test", "-addext", "subjectAltName=\(subjectAltName)",
            ])
        guard result.status == 0 else { throw StreamTestError("openssl: \(result.stderr)") }
        return (cert, key)
    }

    /// nginx plus a TLS front on its own port, serving `cert`.
    struct Server {
        let nginx: StreamTestNginx
        let relay: StreamTestProcess
        let port: Int
        func url(_ key: String = "test") -> String { "rtmps://127.0.0.1:\(port)/live/\(key)" }
    }

    static func server(dir: URL, cert: String, key: String) throws -> Server {
        let nginx = try StreamTestNginx()
        let relay = try StreamTestProcess(
            "python3", [relayScript, "--listen", "0", "--to", "\(nginx.port)", "--cert", cert, "--key", key],
            stderrPath: dir.appendingPathComponent("tls-\(nginx.port).log").path)
        return Server(nginx: nginx, relay: relay, port: try relay.announcedPort("listening 127.0.0.1:", timeout: 10))
    }

    @Test(.enabled(if: available, "needs nginx-rtmp, openssl and python3 (scripts/setup.sh)"))
    func rtmpsWithATrustedCertificateIsPulledBackFromTheServer() throws {
        let dir = try Tools.temporaryDirectory("stream-rtmps")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (cert, key) = try Self.certificate(in: dir, name: "server", subjectAltName: "IP:127.0.0.1")
        let server = try Self.server(dir: dir, cert: cert, key: key)
        defer { server.relay.kill() }
        let result = try Tools.run(
            Tools.onairExecutable,
            [
                "stream", "--duration", "5", "--size", "320x240", "--fps", "30",
                "--preset", "ultrafast", "--ca-file", cert, server.url(),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("connected"), "\(result.stderr)")
        // What arrived through TLS is what nginx recorded: whole, decodable H.264 + AAC.
        let received = try StreamMediaCheck(server.nginx.recording())
        print("rtmps received by nginx: \(received)")
        #expect(received.isH264AndAAC(width: 320, height: 240, rate: 30), "\(received)")
        #expect(received.duration >= 4.5, "nginx received only \(received.duration) s")
        #expect(received.decodeErrors.isEmpty, "\(received.decodeErrors)")
    }

    @Test(.enabled(if: available, "needs nginx-rtmp, openssl and python3 (scripts/setup.sh)"))
    func anUntrustedOrMisnamedCertificateIsRefusedWithAClearMessage() throws {
        let dir = try Tools.temporaryDirectory("stream-rtmps-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (cert, key) = try Self.certificate(in: dir, name: "server", subjectAltName: "IP:127.0.0.1")
        let (otherCert, otherKey) = try Self.certificate(in: dir, name: "other", subjectAltName: "DNS:elsewhere.example")
        let server = try Self.server(dir: dir, cert: cert, key: key)
        defer { server.relay.kill() }
        let misnamed = try Self.server(dir: dir, cert: otherCert, key: otherKey)
        defer { misnamed.relay.kill() }
        let common = ["stream", "--duration", "3", "--size", "320x240", "--preset", "ultrafast"]
        // Not signed by anything trusted (the system's authorities).
        let untrusted = try Tools.run(Tools.onairExecutable, common + [server.url()])
        // Trusted authority, but issued for another host name.
        let wrongHost = try Tools.run(Tools.onairExecutable, common + ["--ca-file", otherCert, misnamed.url()])
        for (name, result) in [("untrusted", untrusted), ("wrong host", wrongHost)] {
            let message = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
            print("rtmps \(name): \(message)")
            #expect(result.status == 1, "\(name): \(result.stderr)")
            #expect(message.contains("certificate did not verify") && message.contains("--ca-file"), "\(name): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: server.nginx.recording()), "nginx got a stream despite the refusal")
        // Switching the check off (testing only) connects to the same server.
        let unchecked = try Tools.run(Tools.onairExecutable, common + ["--no-tls-verify", server.url()])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
    }
}
#endif
