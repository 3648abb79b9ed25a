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

        """

    /// `--onvif`, `--onvif-advertise`, `--onvif-secrets`: the ONVIF services, or none without `--onvif`.
    static func onvif(_ arguments: inout ArgumentList) throws -> ONVIFConfiguration? {
        let advertise = try arguments.option("--onvif-advertise")
        let secrets = try arguments.option("--onvif-secrets")
        guard arguments.flag("--onvif") else {
            if advertise != nil || secrets != nil { throw UsageError("--onvif-advertise and --onvif-secrets go with --onvif") }
            return nil
        }
        var onvif = ONVIFConfiguration(advertise: advertise)
        if let advertise, advertise.isEmpty || advertise.utf8.count > 255 || advertise.contains("/") {
            throw UsageError("--onvif-advertise takes HOST or HOST:PORT")
        }
        if let secrets { onvif.deviceSecrets = try ONVIFConfiguration.deviceSecrets(file: secrets) }
        return onvif
    }
}
#endif
