#if os(Linux)
import Foundation
import OnAirHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Where the HTTPS certificate of `onair serve` comes from: files given by the user, or a key and
/// self-signed certificate made once in a state directory and kept there (so its fingerprint stays
/// the same from one start to the next and a user can pin it).
public enum ServeTLS: Sendable, Equatable {
    /// A certificate (PEM, intermediates after it) and its private key (PEM), read at start.
    case files(certificate: String, key: String)
    /// An ECDSA P-256 key and self-signed certificate in `directory` (`tls-cert.pem`, `tls-key.pem`),
    /// made at the first start with the listen address, 127.0.0.1, ::1 and `localhost` (plus, when
    /// listening on every address, this host's addresses and name) in its subjectAltName.
    case selfSigned(directory: String)

    /// The certificate's file name in a self-signed state directory.
    public static let certificateFile = "tls-cert.pem"
    /// The key's file name in a self-signed state directory (mode 0600).
    public static let keyFile = "tls-key.pem"

    /// The state directory: systemd's `$STATE_DIRECTORY` (its first entry), else
    /// `$XDG_STATE_HOME/onair`, else `~/.local/state/onair`.
    public static func defaultStateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/onair" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/onair"
    }

    /// What was loaded: the credentials, their fingerprint, and the files made now (nil when none were).
    package struct Loaded: Sendable {
        /// The certificate and key.
        package var credentials: HTTPTLSCredentials
        /// The certificate's SHA-256 fingerprint (`AB:12:…`).
        package var fingerprint: String
        /// The certificate file written at this start (self-signed, first start), or nil.
        package var madeCertificate: String?
    }

    /// Reads the certificate and key, or makes them (self-signed, first start) for a server listening on `host`.
    package func load(host: String) throws -> Loaded {
        switch self {
        case .files(let certificate, let key):
            let credentials = try HTTPTLSCredentials(
                certificatePEM: try Self.read(certificate, what: "--tls-cert"), keyPEM: try Self.read(key, what: "--tls-key"))
            return Loaded(credentials: credentials, fingerprint: try credentials.fingerprint, madeCertificate: nil)
        case .selfSigned(let directory):
            let certificatePath = directory + "/" + Self.certificateFile, keyPath = directory + "/" + Self.keyFile
            if FileManager.default.fileExists(atPath: certificatePath) {
                return try ServeTLS.files(certificate: certificatePath, key: keyPath).load(host: host)
            }
            let names = Self.subjectNames(host: host)
            let credentials = try HTTPTLSCredentials.selfSigned(addresses: names.addresses, names: names.dns)
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // The key first, private from its creation; the certificate last, as the sign both are there.
            try Self.write(credentials.keyPEM, to: keyPath, mode: 0o600)
            try Self.write(credentials.certificatePEM, to: certificatePath, mode: 0o644)
            return Loaded(credentials: credentials, fingerprint: try credentials.fingerprint, madeCertificate: certificatePath)
        }
    }

    /// The subjectAltName entries of a self-signed certificate for a server listening on `host`.
    static func subjectNames(host: String) -> (addresses: [String], dns: [String]) {
        var addresses = [String](), dns = ["localhost"]
        let everywhere = host == "0.0.0.0" || host == "::"
        if !everywhere { addresses.append(host) }
        addresses += ["127.0.0.1", "::1"]
        if everywhere {
            addresses += interfaceAddresses()
            let name = ProcessInfo.processInfo.hostName
            if !name.isEmpty, name != "localhost", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." }) {
                dns.append(name)
            }
        }
        var seen = Set<String>()
        return (addresses.filter { seen.insert($0).inserted }, dns)
    }

    /// This host's IPv4 and IPv6 addresses (link-local IPv6 left out: a certificate cannot name its zone).
    private static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found = [String]()
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var raw = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var raw = v6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            default: continue
            }
            let shown = HTTPTLSCredentials.text(text)
            if !shown.isEmpty, !shown.lowercased().hasPrefix("fe80:") { found.append(shown) }
        }
        return found
    }

    private static func read(_ path: String, what: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20 else {
            throw ServeTLSError("\(what): cannot read \(path) (or it is over 1 MiB)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw ServeTLSError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw ServeTLSError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}

/// A certificate or key that could not be read or made.
package struct ServeTLSError: Error, CustomStringConvertible {
    /// What went wrong, with the file.
    public var description: String
    init(_ description: String) { self.description = description }
}
#endif
