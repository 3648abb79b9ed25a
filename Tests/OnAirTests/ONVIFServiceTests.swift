#if os(Linux)
import Foundation
import OnAirCore
@testable import OnAirHTTP
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
        rtsp: ONVIFContext.RTSP = .init(port: 8554, tlsPort: nil, plainOnLoopbackOnly: false),
        configuration: ONVIFConfiguration? = nil, mainCodec: MediaCodec = .h264, secure: Bool = false, ownListener: String? = nil
    ) -> ONVIFService {
        var video = VideoEncoderSettings(width: 1280, height: 720, expectedFrameRate: 30, averageBitRate: 2_000_000)
        var sub = video
        video.codec = mainCodec
        (sub.width, sub.height, sub.expectedFrameRate, sub.averageBitRate) = (640, 360, 5, 400_000)
        let audio = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 128_000)
        let profiles = [
            ONVIFProfile(token: "main", path: "live", video: video, audio: audio, sourceWidth: 1280, sourceHeight: 720),
            ONVIFProfile(token: "sub", path: "sub", video: sub, audio: audio, sourceWidth: 1280, sourceHeight: 720),
        ]
        let identity = ONVIFIdentity(stateDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("onvif-\(UUID())").path)
        return ONVIFService(
            configuration: configuration ?? ONVIFConfiguration(advertise: advertise), profiles: profiles, identity: identity, rtsp: rtsp,
            secure: secure, listener: "127.0.0.1:8080", ownListener: ownListener, access: ServeAccessPolicy(tokens: tokens, log: { _ in }),
            wall: { wall }, uptime: { 0 })
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

    static func post(
        _ service: ONVIFService, _ path: String, _ body: [UInt8], host: String? = "192.0.2.7:8080", onOwnListener: Bool = false
    ) -> (Int, String) {
        let request = HTTPRequest(
            method: "POST", path: path, peer: "192.0.2.9:5000", headers: host.map { ["host": $0] } ?? [:], body: body)
        var response = service.answer(request, onOwnListener: onOwnListener) { _ in .text(200, "jpeg") }
        if case .pending(let pending) = response.body {  // a long poll: its answer once given
            let answered = DispatchSemaphore(value: 0)
            pending.whenAnswered { answered.signal() }
            guard answered.wait(timeout: .now() + 90) == .success, let later = pending.take() else { return (-1, "") }
            response = later
        }
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

    @Test func scopesCarryTheConfiguredNameAndLocation() {
        var configuration = ONVIFConfiguration()
        configuration.name = "Garage Cam"
        configuration.location = "Rue de l'Église"
        let service = Self.service(configuration: configuration)
        let (status, scopes) = Self.post(service, "/onvif/device_service", Self.envelope("<GetScopes/>", password: "s3cret"))
        #expect(status == 200)
        for scope in [
            "name/Garage%20Cam", "location/Rue%20de%20l%27%C3%89glise", "hardware/onair", "type/Network_Video_Transmitter", "Profile/T",
        ] {
            #expect(scopes.contains("<tt:ScopeItem>onvif://www.onvif.org/\(scope)</tt:ScopeItem>"), "\(scope)")
        }
        #expect(ONVIFConfiguration().scopes.contains("onvif://www.onvif.org/name/OnAir"))
        #expect(!ONVIFConfiguration().scopes.contains { $0.contains("/location/") })
        // WS-Discovery matches a Probe for the encoded name.
        let device = WSDiscoveryDevice(endpoint: "urn:uuid:x", scopes: configuration.scopes, instance: 1)
        #expect(device.matches(.probe(messageID: "m", types: [], scopes: ["onvif://www.onvif.org/name/Garage%20Cam"], matchBy: nil)))
    }

    @Test func h265ProfilesAreListedByMedia2Only() {
        let service = Self.service(mainCodec: .h265)
        let (_, media2) = Self.post(service, "/onvif/media2_service", Self.envelope("<GetProfiles/>", password: "s3cret"))
        #expect(media2.contains("<tr2:Profiles token=\"main\"") && media2.contains("<tr2:Profiles token=\"sub\""))
        #expect(
            media2.contains(
                "token=\"main-video\" GovLength=\"60\" Profile=\"Main\"><tt:Name>live</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>H265</tt:Encoding>"
            ))
        #expect(media2.contains("<tt:Name>sub</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding>"))
        let (_, options) = Self.post(
            service, "/onvif/media2_service", Self.envelope("<GetVideoEncoderConfigurationOptions/>", password: "s3cret", nonce: "p"))
        #expect(options.contains("ProfilesSupported=\"Main\"><tt:Encoding>H265</tt:Encoding>"))
        // Media ver10 has no H.265: only the H.264 sub stream.
        let (_, media) = Self.post(service, "/onvif/media_service", Self.envelope("<GetProfiles/>", password: "s3cret", nonce: "q"))
        #expect(!media.contains("token=\"main\"") && media.contains("<trt:Profiles token=\"sub\""))
        #expect(!media.contains("H265"))
        // Its video source is still the capture, at the main encode's rate.
        let (_, sources) = Self.post(service, "/onvif/media_service", Self.envelope("<GetVideoSources/>", password: "s3cret", nonce: "t"))
        #expect(sources.contains("<tt:Framerate>30</tt:Framerate><tt:Resolution><tt:Width>1280</tt:Width>"))
        let streamURI = "<GetStreamUri><ProfileToken>main</ProfileToken></GetStreamUri>"
        let answers = ["media", "media2"].map {
            Self.post(service, "/onvif/\($0)_service", Self.envelope(streamURI, password: "s3cret", nonce: $0)).1
        }
        #expect(answers[0].contains("ter:NoProfile"))
        #expect(answers[1].contains("<tr2:Uri>rtsp://192.0.2.7:8554/live</tr2:Uri>"))
    }

    @Test func theONVIFListenerSpeaksPlainHTTPBesideTLS() {
        let service = Self.service(
            tokens: [], rtsp: .init(port: 8554, tlsPort: 8322, plainOnLoopbackOnly: true), secure: true, ownListener: "192.0.2.7:80")
        let request = Self.envelope("<GetCapabilities/>")
        #expect(Self.post(service, "/onvif/device_service", request).1.contains("https://192.0.2.7:8080/onvif/media_service"))
        let (_, plain) = Self.post(service, "/onvif/device_service", request, host: "192.0.2.7", onOwnListener: true)
        #expect(plain.contains("<tt:XAddr>http://192.0.2.7/onvif/media_service</tt:XAddr>"))
        #expect(plain.contains("<tt:TLS1.2>false</tt:TLS1.2>"))
        // Without a Host header: the ONVIF listener's own address.
        #expect(
            Self.post(service, "/onvif/device_service", request, host: nil, onOwnListener: true).1.contains(
                "http://192.0.2.7:80/onvif/device_service"))
        // The NVR on the LAN is sent to RTSPS (plain RTSP listens on loopback only), its snapshot to plain HTTP.
        let stream = Self.envelope("<GetStreamUri><ProfileToken>main</ProfileToken></GetStreamUri>")
        #expect(
            Self.post(service, "/onvif/media_service", stream, host: "192.0.2.7", onOwnListener: true).1.contains(
                "rtsps://192.0.2.7:8322/live"))
        let snapshot = Self.envelope("<GetSnapshotUri><ProfileToken>sub</ProfileToken></GetSnapshotUri>")
        #expect(
            Self.post(service, "/onvif/media_service", snapshot, host: "192.0.2.7", onOwnListener: true).1.contains(
                "<tt:Uri>http://192.0.2.7/onvif/snapshot/sub.jpg</tt:Uri>"))
        // With --rtsp-plain on, plain RTSP (with digest) on the LAN.
        let lan = Self.service(tokens: [], rtsp: .init(port: 8554, tlsPort: 8322, plainOnLoopbackOnly: false), secure: true)
        #expect(Self.post(lan, "/onvif/media_service", stream).1.contains("rtsp://192.0.2.7:8554/live"))
    }

    @Test func aTextPasswordIsRefusedOnThePlainListener() {
        let service = Self.service(secure: true, ownListener: "192.0.2.7:80")
        let text = Array(
            ("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Header><Security><UsernameToken><Username>onair</Username>"
                + "<Password Type=\"x#PasswordText\">s3cret</Password></UsernameToken></Security></s:Header>"
                + "<s:Body><GetDeviceInformation/></s:Body></s:Envelope>").utf8)
        #expect(Self.post(service, "/onvif/device_service", text).0 == 200)
        let (status, fault) = Self.post(service, "/onvif/device_service", text, onOwnListener: true)
        #expect(status == 400 && fault.contains("a text password needs TLS"))
    }
}
#endif
