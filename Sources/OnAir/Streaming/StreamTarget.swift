import Foundation

/// A streaming destination as FFmpeg URL syntax: `rtmp://host:port/app/key` (FLV), or MPEG-TS over
/// `srt://host:port?mode=caller|listener&latency=µs&passphrase=…&streamid=…`, `udp://host:port?pkt_size=1316`
/// or `tcp://host:port` (`?listen=1`: OnAir waits for the receiver to connect).
public struct StreamTarget: Sendable, Equatable {
    /// The transport a URL names.
    public enum Transport: String, Sendable {
        case rtmp, srt, udp, tcp
    }

    /// The URL as given (handed to FFmpeg unchanged).
    public let url: String
    /// The transport.
    public let transport: Transport
    /// Whether OnAir waits for the peer to connect (SRT `mode=listener`, TCP `listen=1`).
    public let isListener: Bool
    /// The URL with an SRT passphrase replaced by `***`, for messages.
    public let displayName: String
    /// Whether the URL sets an SRT passphrase.
    public let hasPassphrase: Bool

    /// Parses and checks `url`; throws `StreamError` naming what is wrong.
    public init(parsing url: String) throws(StreamError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .unsupportedURL(url, reason: "not a URL")
        }
        guard let transport = Transport(rawValue: scheme) else {
            throw .unsupportedURL(url, reason: "unsupported scheme '\(scheme)' (use rtmp://, srt://, udp:// or tcp://)")
        }
        guard let host = components.host, !host.isEmpty else { throw .unsupportedURL(url, reason: "no host") }
        if transport != .rtmp, components.port == nil { throw .unsupportedURL(url, reason: "no port") }
        if transport == .rtmp, components.path.split(separator: "/").count < 2 {
            throw .unsupportedURL(url, reason: "an RTMP URL needs an application and a stream key: rtmp://host:port/app/key")
        }
        let query = components.queryItems ?? []
        func value(_ name: String) -> String? { query.last { $0.name == name }?.value }
        self.url = url
        self.transport = transport
        switch transport {
        case .srt: isListener = value("mode") == "listener"
        case .tcp: isListener = (value("listen").flatMap(Int.init) ?? 0) > 0
        case .rtmp, .udp: isListener = false
        }
        let passphrase = transport == .srt ? value("passphrase") : nil
        hasPassphrase = passphrase != nil
        if let passphrase {
            displayName = url.replacingOccurrences(of: "passphrase=\(passphrase)", with: "passphrase=***")
            guard (10...79).contains(passphrase.count) else { throw .invalidPassphrase(destination: displayName) }
        } else {
            displayName = url
        }
    }

    /// Whether a command-line argument names a network destination rather than a file.
    public static func isURL(_ text: String) -> Bool {
        text.contains("://")
    }

    /// The libavformat muxer: FLV for RTMP, MPEG-TS otherwise.
    public var muxer: String { transport == .rtmp ? "flv" : "mpegts" }

    /// Muxer options: every packet flushed to the socket at once; FLV without the seek-back
    /// header update that a live connection cannot do.
    public var muxerOptions: [String: String] {
        var options = ["flush_packets": "1"]
        if transport == .rtmp { options["flvflags"] = "no_duration_filesize" }
        return options
    }

    /// Protocol options: no Nagle delay on TCP-based transports; `rw_timeout` (µs) bounds each
    /// send as a second line of defence behind the interrupt callback. `sendBufferBytes` fixes
    /// the TCP socket's send buffer, so a slow link backs up where it can be measured (adaptive
    /// bitrate) rather than in megabytes of kernel buffer.
    public func protocolOptions(sendTimeout: Double, sendBufferBytes: Int? = nil) -> [String: String] {
        var options: [String: String] = [:]
        if transport == .tcp || transport == .rtmp { options["tcp_nodelay"] = "1" }
        if let sendBufferBytes, transport == .tcp || transport == .rtmp { options["send_buffer_size"] = String(sendBufferBytes) }
        if !isListener { options["rw_timeout"] = String(Int(sendTimeout * 1_000_000)) }
        return options
    }
}
