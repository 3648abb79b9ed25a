#if os(Linux)
import Foundation
import OnAirGStreamer
import OnAirTestSupport
import Testing

/// The DTLS certificate WebRTC peers present, read by OpenSSL's command line (not by our code).
@Suite struct WebRTCCertificateTests {
    /// `openssl` with `arguments`, fed `input`; its standard output.
    static func openssl(_ arguments: [String], _ input: String) throws -> String {
        let result = try Tools.run("openssl", arguments, stdin: Data(input.utf8))
        return result.stdoutText
    }

    @Test func isAnECDSAP256CertificateWithItsKeyAndTheOneThePeersFingerprintNames() throws {
        try GStreamerLibrary.start()
        let pem = try WebRTCPeer.certificate()
        #expect(try WebRTCPeer.certificate() == pem, "made once per process")
        let text = try Self.openssl(["x509", "-noout", "-text"], pem)
        #expect(text.contains("id-ecPublicKey") && text.contains("prime256v1"), "\(text.prefix(600))")
        #expect(text.contains("ecdsa-with-SHA256"))
        // The key in the same PEM is the certificate's own.
        let certificateKey = try Self.openssl(["x509", "-noout", "-pubkey"], pem)
        let privateKey = try Self.openssl(["pkey", "-pubout"], pem)
        #expect(!certificateKey.isEmpty && certificateKey == privateKey)
        // Valid now.
        #expect(try Tools.run("openssl", ["x509", "-noout", "-checkend", "86400"], stdin: Data(pem.utf8)).status == 0)

        // A peer's own offer names that certificate's SHA-256 fingerprint.
        let peer = try WebRTCPeer(
            options: .init(
                launch: "webrtcbin name=webrtc bundle-policy=max-bundle appsrc name=audio is-live=true format=time"
                    + " caps=audio/x-opus,channel-mapping-family=0,channels=2,rate=48000 ! rtpopuspay pt=111"
                    + " ! application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! webrtc.",
                localAddress: "127.0.0.1"),
            remoteOffer: nil, onKeyFrameRequest: {})
        defer { peer.close() }
        let named = peer.localDescription.components(separatedBy: "\r\n").first { $0.hasPrefix("a=fingerprint:sha-256 ") }
        let fingerprint = try Self.openssl(["x509", "-noout", "-fingerprint", "-sha256"], pem)
            .trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "=").last
        let written = named.map { String($0.dropFirst("a=fingerprint:sha-256 ".count)).uppercased() }
        #expect(written != nil && written == fingerprint, "\(named ?? "none") vs \(fingerprint ?? "-")")
    }
}
#endif
