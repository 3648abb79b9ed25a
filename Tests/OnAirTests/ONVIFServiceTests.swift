#if os(Linux)
import Foundation
import OnAirCore
import OnAirHTTP
import OnAirServing
import Testing

/// `ONVIFService` answering requests built here (no listener, clocks injected): media2's
/// profiles and URIs, the open operations without credentials, the refusal of the others,
/// faults for unknown and changing operations and for malformed SOAP, addresses from `Host` and
/// `--onvif-advertise`, and the RTSP URI's choice with TLS on.
@Suite struct ONVIFServiceTests {
    static let wall = Date(timeIntervalSince1970: 1_796_407_200)

    static func service(
        tokens: [String] = ["s3cret"], advertise: String? = nil,
        rtsp: ONVIFContext.RTSP = .init(port: 8554, tlsPort: nil, plainOnLoopbackOnly: false)
    ) -> ONVIFService {
        let video = VideoEncoderSettings(width: 1280, height: 720, expectedFrameRate: 30, averageBitRate: 2_000_000)
        var sub = video
        (sub.width, sub.height, sub.expectedFrameRate, sub.averageBitRate) = (640, 360, 5, 400_000)
        let audio = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 128_000)
        let profiles = [
            ONVIFProfile(token: "main", path: "live", video: video, audio: audio, sourceWidth: 1280, sourceHeight: 720),
            ONVIFProfile(token: "sub", path: "sub", video: sub, audio: audio, sourceWidth: 1280, sourceHeight: 720),
        ]
        let identity = ONVIFIdentity(stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("onvif-\(UUID())").path)
        return ONVIFService(
            configuration: ONVIFConfiguration(advertise: advertise), profiles: profiles, identity: identity, rtsp: rtsp, secure: false,
            listener: "127.0.0.1:8080", access: ServeAccessPolicy(tokens: tokens, log: { _ in }), wall: { wall }, uptime: { 0 })
    }

    static func envelope(_ body: String, password: String? = nil, nonce: String = "n") -> [UInt8] {
        var header = ""
        if let password {
            let created = "2026-12-04T18:00:00Z"
            let digest = WSUsernameToken.digest(password: password, nonce: Array(nonce.utf8), created: created)
            header =
                "<s:Header><Security><UsernameToken><Username>onair</Username><Password Type=\"x#PasswordDigest\">\(digest)</Password>"
                + "<Nonce>\(Data(nonce.utf8).base64EncodedString())</Nonce><Created>\(created)</Created></UsernameToken></Security></s:Header>"
        }
        return Array("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\">\(header)<s:Body>\(body)</s:Body></s:Envelope>".utf8)
    }

    static func post(_ service: ONVIFService, _ path: String, _ body: [UInt8], host: String = "192.0.2.7:8080") -> (Int, String) {
        let request = HTTPRequest(method: "POST", path: path, peer: "192.0.2.9:5000", headers: ["host": host], body: body)
        let response = service.answer(request) { _ in .text(200, "jpeg") }
        guard case .bytes(let bytes) = response.body else { return (response.status, "") }
        return (response.status, String(decoding: bytes, as: UTF8.self))
    }

    @Test func openOperationsNeedNoCredentials() {
        let service = Self.service()
        let (status, body) = Self.post(
            service, "/onvif/device_service", Self.envelope("<GetServices><IncludeCapability>true</IncludeCapability></GetServices>"))
        #expect(status == 200)
        #expect(body.contains("<tds:XAddr>http://192.0.2.7:8080/onvif/media2_service</tds:XAddr>"))
        #expect(body.contains("<tr2:Capabilities SnapshotUri=\"true\""))
        let (refused, fault) = Self.post(service, "/onvif/device_service", Self.envelope("<GetDeviceInformation/>"))
        #expect(refused == 401)
        #expect(fault.contains("ter:NotAuthorized"))
    }

    @Test func media2ProfilesAndURIs() {
        let service = Self.service()
        let (status, profiles) = Self.post(
            service, "/onvif/media2_service", Self.envelope("<GetProfiles xmlns=\"\(ONVIFSOAP.media2)\"/>", password: "s3cret"))
        #expect(status == 200)
        #expect(profiles.contains("<tr2:Profiles token=\"main\" fixed=\"true\">"))
        #expect(profiles.contains("GovLength=\"60\" Profile=\"High\""))
        #expect(profiles.contains("<tt:Width>640</tt:Width><tt:Height>360</tt:Height>"))
        let (_, uri) = Self.post(
            service, "/onvif/media2_service",
            Self.envelope(
                "<GetStreamUri><Protocol>RtspUnicast</Protocol><ProfileToken>sub</ProfileToken></GetStreamUri>", password: "s3cret",
                nonce: "m"))
        #expect(uri.contains("<tr2:Uri>rtsp://192.0.2.7:8554/sub</tr2:Uri>"))
        let (_, snapshot) = Self.post(
            service, "/onvif/media2_service",
            Self.envelope("<GetSnapshotUri><ProfileToken>main</ProfileToken></GetSnapshotUri>", password: "s3cret", nonce: "o"))
        #expect(snapshot.contains("<tr2:Uri>http://192.0.2.7:8080/onvif/snapshot/main.jpg</tr2:Uri>"))
    }

    @Test func faultsForWhatIsNotAnswered() {
        let service = Self.service(tokens: [])
        let (rebootStatus, reboot) = Self.post(service, "/onvif/device_service", Self.envelope("<SystemReboot/>"))
        #expect(rebootStatus == 500)
        #expect(reboot.contains("<env:Value>env:Receiver</env:Value><env:Subcode><env:Value>ter:ActionNotSupported</env:Value>"))
        #expect(
            Self.post(service, "/onvif/media_service", Self.envelope("<SetVideoEncoderConfiguration/>")).1.contains("ActionNotSupported"))
        let (malformedStatus, malformed) = Self.post(service, "/onvif/media_service", Array("<s:Envelope><oops".utf8))
        #expect(malformedStatus == 400)
        #expect(malformed.contains("ter:WellFormed"))
        let (_, missing) = Self.post(
            service, "/onvif/media_service", Self.envelope("<GetProfile><ProfileToken>third</ProfileToken></GetProfile>"))
        #expect(missing.contains("ter:NoProfile"))
    }

    @Test func addressesFromTheAdvertisedHostAndTheTLSChoice() {
        let advertised = Self.service(tokens: [], advertise: "cam.example:80")
        #expect(
            Self.post(advertised, "/onvif/device_service", Self.envelope("<GetCapabilities/>")).1.contains(
                "http://cam.example:80/onvif/media_service"))
        let request = Self.envelope("<GetStreamUri><ProfileToken>main</ProfileToken></GetStreamUri>")
        let tlsOnly = Self.service(tokens: [], rtsp: .init(port: 8554, tlsPort: 8322, plainOnLoopbackOnly: true))
        #expect(Self.post(tlsOnly, "/onvif/media_service", request).1.contains("rtsps://192.0.2.7:8322/live"))
        #expect(Self.post(tlsOnly, "/onvif/media_service", request, host: "127.0.0.1:8080").1.contains("rtsp://127.0.0.1:8554/live"))
        let none = Self.service(tokens: [], rtsp: .init(port: nil, tlsPort: nil, plainOnLoopbackOnly: false))
        #expect(Self.post(none, "/onvif/media_service", request).1.contains("serve with --rtsp-port"))
        // A Host header that is not a host falls back to the listener's address.
        #expect(
            Self.post(none, "/onvif/device_service", Self.envelope("<GetCapabilities/>"), host: "a b<").1.contains(
                "http://127.0.0.1:8080/onvif/"))
    }
}
#endif
