#if os(Linux)
import OnAirCore

/// A streaming destination could not be used.
package enum StreamError: OnAirError, Equatable {
    /// The URL is not one OnAir streams to (rtmp://, rtmps://, srt://, udp://, tcp://) or lacks a host or port.
    case unsupportedURL(String, reason: String)
    /// An SRT passphrase outside SRT's 10…79 characters.
    case invalidPassphrase(destination: String)
    /// The first connection failed (later failures are retried instead).
    case connectFailed(destination: String, reason: String)
    /// The SRT peer refused the connection; with a passphrase that is almost always a wrong one.
    case refused(destination: String, reason: String)
    /// The RTMPS server's certificate did not verify (untrusted authority, wrong host name, expired).
    case untrustedCertificate(destination: String, reason: String)

    /// The failure in words, naming the destination.
    public var description: String {
        switch self {
        case let .unsupportedURL(url, reason):
            return "\(url): \(reason)"
        case let .invalidPassphrase(destination):
            return "\(destination): an SRT passphrase must have 10 to 79 characters"
        case let .connectFailed(destination, reason):
            return "cannot connect to \(destination): \(reason)"
        case let .refused(destination, reason):
            return "\(destination) refused the connection (wrong passphrase?): \(reason)"
        case let .untrustedCertificate(destination, reason):
            return "\(destination): the server's certificate did not verify (\(reason)); "
                + "trust a private authority with --ca-file FILE"
        }
    }

    /// True when the destination or its options are at fault rather than the network.
    public var isInvalidSettings: Bool {
        switch self {
        case .unsupportedURL, .invalidPassphrase: return true
        case .connectFailed, .refused, .untrustedCertificate: return false
        }
    }
}
#endif
