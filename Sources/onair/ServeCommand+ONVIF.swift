#if os(Linux)
import OnAir

extension ServeCommand {
    static let onvifHelp = """
          --onvif                      also answer ONVIF (device, media, media2) at ADDR:PORT/onvif/…: one
                                       profile per served stream (main, sub), RTSP and snapshot URIs; user
                                       onair with a --token as password (WS-Security digest, HTTP Digest)
          --onvif-advertise HOST[:PORT] the address put in ONVIF's service, stream and snapshot URIs
                                       (default: the Host the request came to)
          --onvif-secrets FILE         user:secret lines: ONVIF passwords of users (each needs 'read');
                                       password-equivalent, keep the file readable by the service only
          --onvif-discovery on|off     answer WS-Discovery Probes (UDP 239.255.255.250:3702) on the local
                                       subnets (default: on unless --listen is loopback)

        """

    /// `--onvif`, `--onvif-advertise`, `--onvif-secrets`, `--onvif-discovery`: the ONVIF services,
    /// or none without `--onvif`.
    static func onvif(_ arguments: inout ArgumentList) throws -> ONVIFConfiguration? {
        let advertise = try arguments.option("--onvif-advertise")
        let secrets = try arguments.option("--onvif-secrets")
        let discovery = try arguments.option("--onvif-discovery")
        guard arguments.flag("--onvif") else {
            if advertise != nil || secrets != nil || discovery != nil {
                throw UsageError("--onvif-advertise, --onvif-secrets and --onvif-discovery go with --onvif")
            }
            return nil
        }
        var onvif = ONVIFConfiguration(advertise: advertise)
        switch discovery {
        case nil: break
        case "on": onvif.discovery = true
        case "off": onvif.discovery = false
        default: throw UsageError("--onvif-discovery takes on or off")
        }
        if let advertise, advertise.isEmpty || advertise.utf8.count > 255 || advertise.contains("/") {
            throw UsageError("--onvif-advertise takes HOST or HOST:PORT")
        }
        if let secrets { onvif.deviceSecrets = try ONVIFConfiguration.deviceSecrets(file: secrets) }
        return onvif
    }
}
#endif
