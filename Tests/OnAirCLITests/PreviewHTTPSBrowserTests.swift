#if os(Linux)
import Foundation
import OnAirTestSupport
import Testing

/// The preview page over HTTPS in headless Chromium (Tests/Tools/preview_browser.py): a test CA's
/// certificate for 127.0.0.1, trusted by Chromium through its key's SPKI hash (and nothing else:
/// `--ignore-certificate-errors-spki-list`), the page playing over WebRTC (WHEP over HTTPS, media
/// DTLS-SRTP) and, on a server without WebRTC, over MSE from `/live.mp4` — with the token never in
/// a URL the page requested (Chromium's network log).
@Suite(.serialized) struct PreviewHTTPSBrowserTests {
    static let missing = PreviewBrowserDriver.missing

    /// base64(SHA-256(SubjectPublicKeyInfo)) of a certificate, as Chromium's flag takes it.
    static func spki(ofCertificate path: String) throws -> String {
        let key = try Tools.run("openssl", ["x509", "-pubkey", "-noout", "-in", path]).stdout
        let der = try Tools.run("openssl", ["pkey", "-pubin", "-outform", "der"], stdin: key).stdout
        let digest = try Tools.run("openssl", ["dgst", "-sha256", "-binary"], stdin: der).stdout
        return digest.base64EncodedString()
    }

    @Test(.enabled(if: Self.missing == nil, "\(Self.missing ?? "")"), arguments: [true, false])
    func chromiumPlaysThePageOverHTTPSWithTheTokenInNoURL(webRTC: Bool) throws {
        let dir = try Tools.temporaryDirectory("preview-https")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ca = try ServeTLSTests.TestCA(dir)
        let port = PreviewBrowserDriver.port
        let token = "https-t0ken-9"
        let server =
            BrowserPreviewTests.serveCommand(port: port, token: token) + ["--tls-cert", ca.certificate, "--tls-key", ca.key]
            + (webRTC ? ["--webrtc"] : [])
        let (json, log) = try PreviewBrowserDriver.run(
            "plays", url: "https://127.0.0.1:\(port)/?token=\(token)", server: server,
            extra: ["--spki", try Self.spki(ofCertificate: ca.certificate), "--ca-file", ca.ca, "--measure", "2", "--network-log"],
            serverLog: dir.appendingPathComponent("serve.log").path)
        #expect(json["ok"] as? Bool == true, "driver failed: \(json["error"] ?? "") \(log)")
        try #require(json["played_seconds"] is NSNumber, "never played over HTTPS: \(json["first_state"] ?? "no state")")
        #expect(json["transport"] as? String == (webRTC ? "webrtc" : "mse"), "\(json["transport"] ?? "none"): \(json)")
        // 30 fps for 2 s, with a margin for a loaded machine.
        #expect((json["frames"] as? Int ?? 0) >= 36, "frames shown in 2 s: \(json["frames"] ?? "none")")
        // Every request to the server (Chromium's own chrome:// pages aside) went over HTTPS.
        let requests = ((json["requests"] as? [[String: String]]) ?? []).filter { ($0["url"] ?? "").contains("127.0.0.1") }
        #expect(requests.allSatisfy { ($0["url"] ?? "").hasPrefix("https://") }, "a request not over HTTPS: \(requests)")
        #expect(requests.contains { $0["url"]?.hasSuffix(webRTC ? "/whep" : "/live.mp4") == true }, "\(requests)")
        let leaking = requests.filter { $0["type"] != "Document" && ($0["url"] ?? "").contains(token) }
        #expect(leaking.isEmpty, "the page put the token in: \(leaking)")
    }
}
#endif
