#if os(Linux)
import Foundation
import OnAirCore
import OnAirServing
import Testing

/// `RTSPKeyring.digestResponse` (OnAirCore's own MD5) gives what GStreamer's
/// `gst_rtsp_generate_digest_auth_response` gives, looked up in libgstrtsp-1.0 at run time.
@Suite struct RTSPDigestAgreementTests {
    typealias Generate =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?
        ) -> UnsafeMutablePointer<CChar>?

    static func gstreamer(user: String, realm: String, password: String, method: String, uri: String, nonce: String) -> String? {
        guard let library = dlopen("libgstrtsp-1.0.so.0", RTLD_NOW),
            let symbol = dlsym(library, "gst_rtsp_generate_digest_auth_response")
        else { return nil }
        let generate = unsafeBitCast(symbol, to: Generate.self)
        guard let made = generate(nil, method, realm, user, password, uri, nonce) else { return nil }
        defer { free(made) }
        return String(cString: made)
    }

    @Test(arguments: [
        ("onair", "onair", "first-secret", "DESCRIBE", "rtsp://127.0.0.1:8554/live", "00000000000000010000000000000002"),
        ("onair", "onair", "b4c0ffee-token", "PLAY", "rtsp://[::1]:8554/live/", "9f86d081884c7d659a2feaa0c55ad015"),
        ("user", "realm", "", "SETUP", "rtsp://host/live/stream=0", "n"),
        ("ü", "onair", "pässwörd:with:colons", "GET_PARAMETER", "*", String(repeating: "ab", count: 40)),
    ])
    func responsesAgreeWithGStreamer(user: String, realm: String, password: String, method: String, uri: String, nonce: String) {
        let ours = RTSPKeyring.digestResponse(user: user, realm: realm, password: password, method: method, uri: uri, nonce: nonce)
        let theirs = Self.gstreamer(user: user, realm: realm, password: password, method: method, uri: uri, nonce: nonce)
        #expect(theirs != nil, "gst_rtsp_generate_digest_auth_response not found")
        #expect(ours == theirs)
    }
}
#endif
