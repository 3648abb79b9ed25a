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
          --onvif-listen ADDR:PORT     also answer ONVIF (and its snapshots) on a plain-HTTP listener of
                                       its own, e.g. 0.0.0.0:80, even when --listen is HTTPS only
          --onvif-name NAME            the device's name in its ONVIF scopes (default: OnAir)
          --onvif-location TEXT        where the device is, in its ONVIF scopes (e.g. garage)

        """

    /// `--onvif` and the `--onvif-…` options: the ONVIF services, or none without `--onvif`.
    static func onvif(_ arguments: inout ArgumentList) throws -> ONVIFConfiguration? {
        let advertise = try arguments.option("--onvif-advertise")
        let secrets = try arguments.option("--onvif-secrets")
        let discovery = try arguments.option("--onvif-discovery")
        let listen = try arguments.option("--onvif-listen")
        let name = try arguments.option("--onvif-name")
        let location = try arguments.option("--onvif-location")
        guard arguments.flag("--onvif") else {
            if [advertise, secrets, discovery, listen, name, location].contains(where: { $0 != nil }) {
                throw UsageError("the --onvif-… options go with --onvif")
            }
            return nil
        }
        var onvif = ONVIFConfiguration(advertise: advertise)
        onvif.listen = listen
        if let name {
            guard (1...64).contains(name.utf8.count) else { throw UsageError("--onvif-name takes 1–64 bytes") }
            onvif.name = name
        }
        if let location {
            guard (1...128).contains(location.utf8.count) else { throw UsageError("--onvif-location takes 1–128 bytes") }
            onvif.location = location
        }
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
