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
