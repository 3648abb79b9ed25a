#if os(Linux)
import Foundation
import OnAirCore

#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
import OnAirHTTP

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
        // The ONVIF listener (`--onvif-listen`): plain HTTP; discovery sends clients there.
        let own = server.onvifListenerPort.flatMap { port in
            onvif.listen.map { listen in (host: Self.reachableHost(listen, fallback: host), port: port) }
        }
        server.setONVIF(
            ONVIFService(
                configuration: onvif, profiles: [main] + further, identity: identity,
                rtsp: .init(port: plain, tlsPort: rtsp?.tlsPort, plainOnLoopbackOnly: loopbackOnly), secure: tls,
                listener: "\(host):\(server.port)", ownListener: own.map { "\($0.host):\($0.port)" }, access: server.access,
                events: events))
        var notices = own.map { ["ONVIF over plain HTTP: http://\($0.host):\($0.port)/onvif/device_service"] } ?? []
        let listenerIsLoopback =
            own == nil ? configuration.isLoopback : (onvif.listen.flatMap { try? HTTPListenAddress(parsing: $0) }?.isLoopback ?? true)
        guard onvif.discovery ?? !listenerIsLoopback else { return notices }
        notices.append(
            discover(
                identity: identity, scopes: onvif.scopes, advertise: onvif.advertise, scheme: own == nil && tls ? "https" : "http",
                port: own?.port ?? server.port))
        return notices
    }

    /// The host for addresses of a listener on `listen`: its own when it names one, `fallback`
    /// (the serve listener's) when it listens on every address.
    static func reachableHost(_ listen: String, fallback: String) -> String {
        guard let address = try? HTTPListenAddress(parsing: listen), !["0.0.0.0", "::"].contains(address.host) else { return fallback }
        return address.isIPv6 ? "[\(address.host)]" : address.host
    }

    /// Starts WS-Discovery as the device of `identity` with `scopes`, its XAddrs on the address a
    /// Probe came to and `port` (or `advertise`); says what it did.
    private func discover(identity: ONVIFIdentity, scopes: [String], advertise: String?, scheme: String, port: Int) -> String {
        let device = WSDiscoveryDevice(endpoint: "urn:uuid:" + identity.uuid, scopes: scopes, instance: Int(Date().timeIntervalSince1970))
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
