#if os(Linux)
import OnAirCore

#if canImport(OnAirHTTP) && canImport(OnAirFFmpeg)
extension ServeOutputs {
    /// Answers the ONVIF services on the serve listener when the configuration asks for them
    /// (`--onvif`): a profile for the main encode (`video`, `audio`, from a capture of `video`'s
    /// size) and one for each further encode in `renditions` (name and effective settings).
    package func serveONVIF(video: VideoEncoderSettings?, audio: AudioEncoderSettings?, renditions: [(String, VideoEncoderSettings)]) {
        let configuration = server.configuration
        guard let onvif = configuration.onvif, let video else { return }
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
        server.setONVIF(
            ONVIFService(
                configuration: onvif, profiles: [main] + further, identity: ONVIFIdentity(stateDirectory: onvif.stateDirectory),
                rtsp: .init(port: plain, tlsPort: rtsp?.tlsPort, plainOnLoopbackOnly: loopbackOnly), secure: tls,
                listener: "\(host):\(server.port)", access: server.access))
    }
}
#endif
#endif
