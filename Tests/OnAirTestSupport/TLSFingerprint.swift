import Foundation

/// SHA-256 certificate fingerprints (`AB:12:…`) as openssl computes them.
public enum TLSFingerprint {
    /// The fingerprint of the first certificate in `pem`, or "" when openssl reads none.
    public static func of(pem: String) throws -> String {
        let out = try Tools.run("openssl", ["x509", "-noout", "-fingerprint", "-sha256"], stdin: Data(pem.utf8)).stdoutText
        return out.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    /// The fingerprint of the certificate a new TLS connection to 127.0.0.1:`port` is shown
    /// (`openssl s_client`), or "none".
    public static func presented(port: Int) throws -> String {
        let text = try Tools.run("openssl", ["s_client", "-connect", "127.0.0.1:\(port)"], stdin: Data()).stdoutText
        guard let start = text.range(of: "-----BEGIN CERTIFICATE-----"), let end = text.range(of: "-----END CERTIFICATE-----") else {
            return "none"
        }
        return try of(pem: String(text[start.lowerBound..<end.upperBound]) + "\n")
    }
}
