#if os(Linux)
import Foundation

/// The ONVIF services of `onair serve` (`--onvif`): device, media (ver10) and media2 (ver20) on
/// the serve HTTP listener, under `/onvif/`. What an NVR or Home Assistant needs to adopt the
/// camera: its identity, one profile per served stream, the stream and snapshot URIs.
public struct ONVIFConfiguration: Sendable, Equatable {
    /// The host (or `host:port`) put into service, stream and snapshot addresses instead of the
    /// one the request came to (`--onvif-advertise`); nil: the request's `Host`.
    public var advertise: String?
    /// Where the device's identity (`onvif-device-uuid`) is kept across restarts.
    public var stateDirectory: String
    /// ONVIF users besides `onair` (whose password is each `--token`): name → device secret. A
    /// device secret is what the device recomputes a digest from, so it is password-equivalent
    /// (kept apart from the argon2id login hashes, read from a file only the service user reads).
    public var deviceSecrets: [String: String] = [:]
    /// Whether WS-Discovery answers Probes on UDP 3702 (`--onvif-discovery on|off`); nil: on when
    /// the listener is not loopback (a loopback device cannot be reached by what finds it).
    public var discovery: Bool?
    /// A listener of the ONVIF services' own (`--onvif-listen ADDR:PORT`): the services and the
    /// snapshot over plain HTTP, as most NVRs and Home Assistant's library speak ONVIF, even when
    /// the serve listener is HTTPS only; nil: the serve listener alone.
    public var listen: String?
    /// The device's name in its scopes (`onvif://www.onvif.org/name/…`, `--onvif-name`).
    public var name = "OnAir"
    /// Where the device is, in its scopes (`onvif://www.onvif.org/location/…`, `--onvif-location`); nil: none.
    public var location: String?

    /// The scopes GetScopes and WS-Discovery give: type, profile, name, hardware and location,
    /// each value percent-encoded as one path segment.
    public var scopes: [String] {
        let fixed = ["type/video_encoder", "type/audio_encoder", "type/Network_Video_Transmitter", "Profile/Streaming", "Profile/T"]
        let given = ["name/" + Self.segment(name), "hardware/onair"] + (location.map { ["location/" + Self.segment($0)] } ?? [])
        return (fixed + given).map { "onvif://www.onvif.org/" + $0 }
    }

    /// `text` as one URI path segment: unreserved bytes kept, every other one percent-encoded.
    static func segment(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        return text.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    /// The services with addresses from each request, the identity in `stateDirectory`.
    public init(advertise: String? = nil, stateDirectory: String = ServeTLS.defaultStateDirectory()) {
        self.advertise = advertise
        self.stateDirectory = stateDirectory
    }

    /// The device secrets of a file of `user:secret` lines (`--onvif-secrets FILE`; `#` comments
    /// and blank lines skipped). Throws naming the line that is not one, never showing a secret.
    public static func deviceSecrets(file path: String) throws -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServeAuthError("--onvif-secrets: cannot read \(path)")
        }
        var secrets: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex, trimmed.index(after: colon) != trimmed.endIndex
            else { throw ServeAuthError("--onvif-secrets: line \(index + 1) of \(path) is not user:secret") }
            secrets[String(trimmed[..<colon])] = String(trimmed[trimmed.index(after: colon)...])
        }
        return secrets
    }
}
#endif
