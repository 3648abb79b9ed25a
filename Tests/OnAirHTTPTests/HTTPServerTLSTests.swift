#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// HTTPS with certificates replaced while serving: new handshakes (openssl s_client) see the new
/// certificate's fingerprint while a viewer connected before (curl) keeps receiving.
@Suite struct HTTPServerTLSTests {
    /// Endless bytes, a few kilobytes at a time, at a pace of its own: every other read has
    /// nothing, the next bytes ready a few milliseconds later.
    final class Endless: HTTPStreamSource {
        private let turn = Locked(0)

        func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTPStreamRead {
            let ready = turn.withLock { turn in
                turn += 1
                return turn % 2 == 0
            }
            guard ready else { return .nothing }
            let count = min(buffer.count, 4096)
            for index in 0..<count { buffer[index] = UInt8(index & 0xff) }
            return .bytes(count)
        }

        func notify(_ wake: @escaping @Sendable () -> Void) {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5), execute: wake)
        }

        func close() {}
    }

    @Test func aReloadedCertificateServesNewHandshakesWhileOpenConnectionsContinue() throws {
        let first = try HTTPTLSCredentials.selfSigned(addresses: ["127.0.0.1"], names: ["localhost"])
        let second = try HTTPTLSCredentials.selfSigned(addresses: ["127.0.0.1"], names: ["localhost"])
        #expect(try first.fingerprint != second.fingerprint)
        var configuration = HTTPServerConfiguration(address: try HTTPListenAddress(host: "127.0.0.1", port: 0))
        configuration.tls = first
        let server = try HTTPServer(configuration: configuration) { _ in HTTPResponse(status: 200, body: .stream(Endless())) }
        defer { server.stop() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tls-reload-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let viewer = Tools.process("curl", ["-k", "-s", "-N", "-o", output, "https://127.0.0.1:\(server.port)/"])
        try viewer.runUnblocked()
        defer { kill(viewer) }
        func received() -> Int { ((try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int) ?? 0 }
        #expect(waitUntil(timeout: 10) { received() > 50_000 }, "the viewer got \(received()) bytes")
        #expect(try TLSFingerprint.presented(port: server.port) == first.fingerprint)

        try server.reloadCertificate(second)
        #expect(try TLSFingerprint.presented(port: server.port) == second.fingerprint)
        let before = received()
        #expect(waitUntil(timeout: 10) { received() > before + 200_000 }, "the viewer from before stopped at \(received()) bytes")
        #expect(viewer.isRunning)
        #expect(throws: HTTPServerError.self) {
            try server.reloadCertificate(HTTPTLSCredentials(certificatePEM: first.certificatePEM, keyPEM: second.keyPEM))
        }
    }
}
#endif
