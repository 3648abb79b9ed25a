#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
extension ServeOutputs {
    /// Answers the ONVIF services on the serve listener when the configuration asks for them
    /// (`--onvif`): a profile for the main encode (`video`, `audio`, from a capture of `video`'s
    /// size) and one for each further encode in `renditions` (name and effective settings); the
    /// events service too when `motion` is enabled (call after enabling it).
    /// Returns what is worth a notice (WS-Discovery's start, or why it could not).
    package func serveONVIF(
        video: VideoEncoderSettings?, audio: AudioEncoderSettings?, renditions: [(String, VideoEncoderSettings)]
    ) -> [String] {
        let configuration = server.configuration
        guard let onvif = configuration.onvif, let video else { return [] }
        let main = ONVIFProfile(
            token: "main", path: ServeHub.main, video: video, audio: audio, sourceWidth: video.width, sourceHeight: video.height)
        let further = renditions.map { name, settings in
            ONVIFProfile(token: name, path: name, video: settings, audio: audio, sourceWidth: video.width, sourceHeight: video.height)
        }
        let tls = server.tls != nil
        let plain = rtsp.flatMap { face in face.port == 0 ? nil : face.port }
        let loopbackOnly = tls && ServeRTSPFace.plainHost(configuration, tls: tls).map(ServeConfiguration.isLoopback) ?? true
        let listener =
            configuration.isLoopback || !["0.0.0.0", "::", "[::]"].contains(configuration.host) ? configuration.host : "127.0.0.1"
        let host = listener.contains(":") && !listener.hasPrefix("[") ? "[\(listener)]" : listener
        // The events service answers when motion is detected: its one source.
        var events: ONVIFEvents?
        if motion.figures.enabled {
            let made = ONVIFEvents()
            motion.listen { made.publish(isMotion: $0, at: $1) }
            events = made
        }
        let identity = ONVIFIdentity(stateDirectory: onvif.stateDirectory)
        server.setONVIF(
            ONVIFService(
                configuration: onvif, profiles: [main] + further, identity: identity,
                rtsp: .init(port: plain, tlsPort: rtsp?.tlsPort, plainOnLoopbackOnly: loopbackOnly), secure: tls,
                listener: "\(host):\(server.port)", access: server.access, events: events))
        guard onvif.discovery ?? !configuration.isLoopback else { return [] }
        return [discover(identity: identity, advertise: onvif.advertise, scheme: tls ? "https" : "http")]
    }

    /// Starts WS-Discovery as the device of `identity`, its XAddrs on the address a Probe came
    /// to (or `advertise`); says what it did.
    private func discover(identity: ONVIFIdentity, advertise: String?, scheme: String) -> String {
        let port = server.port
        let device = WSDiscoveryDevice(
            endpoint: "urn:uuid:" + identity.uuid, scopes: ONVIFDeviceService.scopes, instance: Int(Date().timeIntervalSince1970))
        do {
            let responder = try WSDiscoveryResponder(
                device: device, xaddrs: { address in ["\(scheme)://\(advertise ?? "\(address):\(port)")/onvif/device_service"] },
                log: { FileHandle.standardError.write(Data(("onvif: " + $0 + "\n").utf8)) })
            server.setDiscovery(responder)
            let interfaces = responder.joinedInterfaces.joined(separator: ", ")
            return
                "ONVIF discovery: answering WS-Discovery Probes on \(interfaces.isEmpty ? "no interface" : interfaces) as \(device.endpoint)"
        } catch {
            return "ONVIF discovery is off: \(error)"
        }
    }
}
#endif
#endif
