#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// `onair stream whip+https://…`: the offer and answer inside TLS (Tests/Tools/tls_relay.py in
/// front of the aiortc WHIP server), the certificate checked against a test CA made by openssl:
/// publishing works with `--ca-file`, and a certificate for another host name is refused, saying so.
@Suite(.serialized) struct StreamWHIPTLSTests {
    /// The WHIP server behind a TLS relay presenting `ca`'s server certificate.
    static func relay(_ ca: ServeTLSTests.TestCA, to server: WHIPTestServer, dir: URL, label: String) throws -> (StreamTestProcess, Int) {
        let relay = try StreamTestProcess(
            "python3",
            [StreamRTMPSTests.relayScript, "--listen", "0", "--to", "\(server.port)", "--cert", ca.certificate, "--key", ca.key],
            stderrPath: dir.appendingPathComponent("\(label).log").path)
        return (relay, try relay.announcedPort("listening 127.0.0.1:", timeout: 10))
    }

    @Test(.enabled(if: WHIPTestServer.available, "needs aiortc (pip install aiortc), webrtcbin and gstreamer1.0-nice (scripts/setup.sh)"))
    func publishesOverHTTPSWithTheCAAndRefusesACertificateForAnotherName() throws {
        let dir = try Tools.temporaryDirectory("stream-whip-tls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try ServeTLSTests.TestCA(dir)
        let other = try ServeTLSTests.TestCA(dir, name: "other", subjectAltName: "DNS:camera.example")
        let server = try WHIPTestServer(directory: dir, label: "server")
        let (relay, port) = try Self.relay(ca, to: server, dir: dir, label: "relay")
        defer { relay.kill() }
        let stream = try StreamWHIPTests.stream(
            "whip+https://127.0.0.1:\(port)/whip", seconds: 5, dir: dir, log: "stream.log", extra: ["--ca-file", ca.ca])
        #expect(stream.wait(timeout: 60), "onair stream did not stop: \(stream.stderr)")
        #expect(stream.process.terminationStatus == 0, "\(stream.stderr)")
        let summary = server.stop().first ?? [:]
        #expect(server.events("session").count == 1, "\(server.events)")
        #expect(summary["deleted"] as? Bool == true, "the DELETE went over TLS too: \(summary)")
        #expect((summary["video_frames"] as? Int ?? 0) >= 30 && summary["decode_errors"] as? Int == 0, "\(summary)")

        // A certificate naming another host: refused before any offer is sent, with the reason.
        let (wrongRelay, wrongPort) = try Self.relay(other, to: server, dir: dir, label: "wrong-relay")
        defer { wrongRelay.kill() }
        let refused = try StreamWHIPTests.stream(
            "whip+https://127.0.0.1:\(wrongPort)/whip", seconds: 3, dir: dir, log: "refused.log", extra: ["--ca-file", other.ca])
        #expect(refused.wait(timeout: 30))
        #expect(refused.process.terminationStatus == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("certificate") && refused.stderr.contains("does not match"), "\(refused.stderr)")
    }
}
#endif
