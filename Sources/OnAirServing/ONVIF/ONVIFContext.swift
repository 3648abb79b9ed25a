#if os(Linux)
/// What the ONVIF answers to one request are made from: the addresses the client reaches the
/// device on (from its `Host`, or `--onvif-advertise`), the profiles, the identity and the
/// RTSP faces that serve the streams.
package struct ONVIFContext: Sendable {
    /// Where RTSP clients are sent: the ports of the faces (nil when not served) and whether plain
    /// RTSP listens on loopback only (TLS on, `--rtsp-plain loopback`).
    package struct RTSP: Sendable, Equatable {
        /// Plain RTSP's port, nil without it.
        package var port: Int?
        /// RTSPS's port, nil without it.
        package var tlsPort: Int?
        /// Whether plain RTSP is reachable on loopback only.
        package var plainOnLoopbackOnly: Bool

        /// The faces' ports.
        package init(port: Int?, tlsPort: Int?, plainOnLoopbackOnly: Bool) {
            self.port = port
            self.tlsPort = tlsPort
            self.plainOnLoopbackOnly = plainOnLoopbackOnly
        }
    }

    /// `http://HOST:PORT` or `https://…`: the base of service and snapshot addresses.
    package var base: String
    /// The host alone (an IPv6 address in brackets), for the RTSP URIs.
    package var host: String
    /// One profile per served stream, the main one first.
    package var profiles: [ONVIFProfile]
    /// The device's identity.
    package var identity: ONVIFIdentity
    /// The RTSP faces.
    package var rtsp: RTSP
    /// Whether the request came over TLS.
    package var secure: Bool
    /// Whether the events service answers (motion detection runs).
    package var events = false
    /// The device's scopes (`ONVIFConfiguration.scopes`).
    package var scopes: [String] = ONVIFConfiguration().scopes

    /// The service address of `service` (`device`, `media`, `media2`).
    package func address(_ service: String) -> String { "\(base)/onvif/\(service)_service" }

    /// The profile named `token`, or the fault GetProfile and friends answer.
    package func profile(_ token: String?) throws(ONVIFSOAP.Fault) -> ONVIFProfile {
        guard let token, let found = profiles.first(where: { $0.token == token }) else {
            throw .invalidArgument("NoProfile", "no profile '\(token ?? "")' (profiles: \(profiles.map(\.token).joined(separator: ", ")))")
        }
        return found
    }

    /// The RTSP URI of `profile`: plain RTSP where the client can reach it (not TLS-only to
    /// loopback from elsewhere), else RTSPS; a fault naming what to enable when neither is served.
    package func streamURI(_ profile: ONVIFProfile) throws(ONVIFSOAP.Fault) -> String {
        let loopbackClient = host == "127.0.0.1" || host == "[::1]" || host == "localhost"
        if let port = rtsp.port, !rtsp.plainOnLoopbackOnly || loopbackClient { return "rtsp://\(host):\(port)/\(profile.path)" }
        if let port = rtsp.tlsPort { return "rtsps://\(host):\(port)/\(profile.path)" }
        if rtsp.port != nil {
            throw .invalidArgument(
                "InvalidStreamSetup", "plain RTSP listens on loopback only with TLS: serve with --rtsps-port or --rtsp-plain on")
        }
        throw .invalidArgument("InvalidStreamSetup", "no RTSP face: serve with --rtsp-port (or --rtsps-port) to stream")
    }

    /// The snapshot URI of `profile` (answered on this listener with the ONVIF credentials).
    package func snapshotURI(_ profile: ONVIFProfile) -> String { "\(base)/onvif/snapshot/\(profile.token).jpg" }

    /// The host and port part of a `Host` header, checked (1–255 bytes of a host name, an IPv4 or
    /// a bracketed IPv6 address, an optional port), else nil.
    package static func checkedHost(_ header: String?) -> String? {
        guard let header, !header.isEmpty, header.utf8.count <= 255 else { return nil }
        let allowed = header.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128 && (Character(scalar).isLetter || Character(scalar).isNumber)) || ".-:[]_".unicodeScalars.contains(scalar)
        }
        guard allowed else { return nil }
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return nil }
            let rest = header[header.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            return header
        }
        let parts = header.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber), parts[1].count <= 5 else { return nil } }
        return header
    }

    /// The host of `hostAndPort` without its port.
    package static func hostOnly(_ hostAndPort: String) -> String {
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") { return String(hostAndPort[...close]) }
        return String(hostAndPort.split(separator: ":", omittingEmptySubsequences: false)[0])
    }
}
#endif
