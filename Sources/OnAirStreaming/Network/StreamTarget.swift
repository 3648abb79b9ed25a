#if os(Linux)
import Foundation

/// A streaming destination as FFmpeg URL syntax: `rtmp://host:port/app/key` or
/// `rtmps://host:port/app/key` (FLV; RTMPS over TLS, port 443 by default), or MPEG-TS over
/// `srt://host:port?mode=caller|listener&latency=µs&passphrase=…&streamid=…`, `udp://host:port?pkt_size=1316`
/// or `tcp://host:port` (`?listen=1`: OnAir waits for the receiver to connect); or
/// `rtsp://host:port/path`, published to an RTSP server (ANNOUNCE/RECORD, RTP interleaved over TCP),
/// or `rtsps://` the same inside TLS — whose certificate FFmpeg 5.1's RTSP publisher does not check.
package struct StreamTarget: Sendable, Equatable {
    /// The transport a URL names.
    public enum Transport: String, Sendable {
        /// The URL schemes `rtmp://`, `rtmps://`, `srt://`, `udp://`, `tcp://`, `rtsp://` and `rtsps://`.
        case rtmp, rtmps, srt, udp, tcp, rtsp, rtsps

        /// RTMP, plain or over TLS.
        public var isRTMP: Bool { self == .rtmp || self == .rtmps }
        /// Runs over TCP (Nagle's delay and the send buffer apply).
        public var isTCP: Bool { self == .tcp || isRTSP || isRTMP }
        /// RTSP publishing, plain or over TLS.
        public var isRTSP: Bool { self == .rtsp || self == .rtsps }
    }

    /// How an `rtmps://` connection checks the server's certificate.
    public struct TLSOptions: Sendable, Equatable {
        /// Check the certificate chain and that it names the URL's host (default on: a stream
        /// key sent to an impostor is a stolen stream).
        public var verify = true
        /// PEM file of the certificate authorities to trust instead of the system's.
        public var caFile: String?
        /// Verifying against the system's authorities.
        public init(verify: Bool = true, caFile: String? = nil) {
            self.verify = verify
            self.caFile = caFile
        }
    }

    /// The URL handed to FFmpeg: as given, except that a `udp://` URL without `pkt_size` gets
    /// `pkt_size=1316` (seven TS packets per datagram, under a typical MTU; FFmpeg's own 1472 would
    /// split TS packets across datagrams).
    public let url: String
    /// The transport.
    public let transport: Transport
    /// Whether OnAir waits for the peer to connect (SRT `mode=listener`, TCP `listen=1`).
    public let isListener: Bool
    /// The URL with an SRT passphrase and a password in its user part replaced by `***`, for messages.
    public let displayName: String
    /// Whether the URL sets an SRT passphrase.
    public let hasPassphrase: Bool
    /// Certificate checking for `rtmps://` (ignored by the other transports).
    public var tls = TLSOptions()

    /// Parses and checks `url`; throws `StreamError` naming what is wrong.
    public init(parsing url: String) throws(StreamError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .unsupportedURL(url, reason: "not a URL")
        }
        guard let transport = Transport(rawValue: scheme) else {
            throw .unsupportedURL(
                url, reason: "unsupported scheme '\(scheme)' (use rtmp://, rtmps://, srt://, udp://, tcp://, rtsp:// or rtsps://)")
        }
        guard let host = components.host, !host.isEmpty else { throw .unsupportedURL(url, reason: "no host") }
        if !transport.isRTMP, components.port == nil { throw .unsupportedURL(url, reason: "no port") }
        if transport.isRTMP, components.path.split(separator: "/").count < 2 {
            throw .unsupportedURL(url, reason: "an RTMP URL needs an application and a stream key: rtmp://host:port/app/key")
        }
        let query = components.queryItems ?? []
        func value(_ name: String) -> String? { query.last { $0.name == name }?.value }
        if transport == .udp && value("pkt_size") == nil {
            self.url = url + (components.query == nil ? "?" : "&") + "pkt_size=1316"
        } else {
            self.url = url
        }
        self.transport = transport
        switch transport {
        case .srt: isListener = value("mode") == "listener"
        case .tcp: isListener = (value("listen").flatMap(Int.init) ?? 0) > 0
        case .rtmp, .rtmps, .udp, .rtsp, .rtsps: isListener = false
        }
        let passphrase = transport == .srt ? value("passphrase") : nil
        hasPassphrase = passphrase != nil
        // A password in the URL's user part (rtsp://user:password@host/…) is masked too.
        var shown = url
        if let password = components.percentEncodedPassword, let user = components.percentEncodedUser {
            shown = shown.replacingOccurrences(of: "\(user):\(password)@", with: "\(user):***@")
        }
        if let passphrase {
            displayName = shown.replacingOccurrences(of: "passphrase=\(passphrase)", with: "passphrase=***")
            guard (10...79).contains(passphrase.count) else { throw .invalidPassphrase(destination: displayName) }
        } else {
            displayName = shown
        }
    }

    /// Why the server's certificate goes unchecked on this TLS transport, or nil: FFmpeg 5.1's RTSP
    /// publisher takes no TLS options, so `rtsps://` is encrypted but does not authenticate the server.
    public var uncheckedCertificateReason: String? {
        transport == .rtsps ? "FFmpeg's RTSP publisher does not check the server's certificate (encrypted, not authenticated)" : nil
    }

    /// Whether a command-line argument names a network destination rather than a file.
    public static func isURL(_ text: String) -> Bool {
        text.contains("://")
    }

    /// The libavformat muxer: FLV for RTMP, FFmpeg's RTSP publisher for RTSP, MPEG-TS otherwise.
    public var muxer: String { transport.isRTMP ? "flv" : transport.isRTSP ? "rtsp" : "mpegts" }

    /// Muxer options: every packet flushed to the socket at once; FLV without the seek-back
    /// header update that a live connection cannot do; MPEG-TS with each audio frame in its own
    /// PES packet (`pes_payload_size=0`: the default gathers ~2.9 kB, several AAC frames) and
    /// with the video PES length written (`omit_video_pes_length=0`), so a receiver's demuxer
    /// hands on a frame as soon as its last byte arrives instead of waiting for the next frame.
    public var muxerOptions: [String: String] {
        var options = ["flush_packets": "1"]
        if transport.isRTMP { options["flvflags"] = "no_duration_filesize" }
        // RTP interleaved in the RTSP connection: one TCP stream that a server behind NAT or a
        // firewall can take, and whose back-pressure the adaptive bitrate sees.
        if transport.isRTSP { options["rtsp_transport"] = "tcp" }
        if muxer == "mpegts" {
            options["pes_payload_size"] = "0"
            options["omit_video_pes_length"] = "0"
        }
        return options
    }

    /// Protocol options: no Nagle delay on TCP-based transports; `rw_timeout` (µs, twice the send
    /// timeout) bounds each send as a second line of defence behind the interrupt callback. `sendBufferBytes` fixes
    /// the TCP socket's send buffer, so a slow link backs up where it can be measured (adaptive
    /// bitrate) rather than in megabytes of kernel buffer (RTSP's muxer opens its own connection and
    /// takes none of these; its deadline is the interrupt callback). RTMPS gets FFmpeg's TLS options
    /// (`tls_verify`, `ca_file`), which its TLS layer reads, and passes the TCP ones on.
    public func protocolOptions(sendTimeout: Double, sendBufferBytes: Int? = nil) -> [String: String] {
        var options: [String: String] = [:]
        if transport.isTCP { options["tcp_nodelay"] = "1" }
        if let sendBufferBytes, transport.isTCP { options["send_buffer_size"] = String(sendBufferBytes) }
        if transport == .rtmps {
            options["tls_verify"] = tls.verify ? "1" : "0"
            if let caFile = tls.caFile { options["ca_file"] = caFile }
        }
        // Twice the deadline: the deadline (re-armed while the peer still acknowledges) decides a
        // stall; at the same length the two raced, and a send cut by this one read as a timeout.
        if !isListener { options["rw_timeout"] = String(Int(2 * sendTimeout * 1_000_000)) }
        return options
    }
}
#endif
