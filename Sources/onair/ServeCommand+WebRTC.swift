#if os(Linux)
import OnAir

extension ServeCommand {
    /// The WebRTC flags: nil without --webrtc.
    static func webRTC(_ arguments: inout ArgumentList) throws -> WebRTCConfiguration? {
        let ports = try arguments.option("--webrtc-ports")
        let advertised = try arguments.option("--webrtc-advertise")
        guard arguments.flag("--webrtc") else {
            if ports != nil || advertised != nil { throw UsageError("--webrtc-ports and --webrtc-advertise go with --webrtc") }
            return nil
        }
        var webRTC = WebRTCConfiguration()
        if let ports {
            let bounds = ports.split(separator: "-").compactMap { Int($0) }
            guard bounds.count == 2, bounds[0] >= 1024, bounds[0] <= bounds[1], bounds[1] <= 65_535 else {
                throw UsageError("--webrtc-ports takes MIN-MAX, UDP ports 1024–65535")
            }
            webRTC.ports = bounds[0]...bounds[1]
        }
        webRTC.advertisedAddress = advertised
        return webRTC
    }
}
#endif
