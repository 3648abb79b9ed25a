extension Session {
    /// Where a serving session can be watched.
    public struct ServedEndpoints: Sendable {
        /// `http://HOST:PORT` of the server.
        public var baseURL: String
        /// `?token=…` to append to every URL, or "".
        public var query: String
        /// The UDP port SRT callers use, or nil.
        public var srtPort: Int?
        /// The TCP port RTSP clients use (`rtsp://HOST:PORT/live`), or nil.
        public var rtspPort: Int?
        /// The TCP port RTSPS clients use (`rtsps://HOST:PORT/live`), or nil.
        public var rtspsPort: Int?
        /// Where plain RTSP listens when that differs from `host` (loopback only beside RTSPS), or nil.
        public var rtspHost: String?
        /// The RTSP user name when a token is set (the token is the password).
        public var rtspUser: String
        /// Where WHEP players post their offer, when WebRTC viewers are served.
        public var whepURL: String?
        /// The address listened on.
        public var host: String
        /// Whether only this machine can connect.
        public var isLoopback: Bool
        /// Whether callers need a token (SRT: as passphrase).
        public var hasToken: Bool
        /// The SHA-256 fingerprint of the HTTPS certificate, when the HTTP faces speak TLS.
        public var tlsFingerprint: String?
        /// The self-signed certificate file made at this start, if one was.
        public var tlsCertificateMade: String?
        /// The port of the plain-HTTP listener that redirects to HTTPS (`redirectListen`), or nil.
        public var redirectPort: Int?
        /// The further encodes served beside `live` (`SessionSettings.renditions`' names: `/sub.ts`, `rtsp://…/sub`).
        public var renditions: [String] = []
        /// Re-reads the TLS certificate and key for new connections (SIGHUP); returns the new fingerprint.
        public var reloadCertificate: (@Sendable () throws -> String)?

        /// The MPEG-TS, fragmented-MP4 and HLS stream URLs and the preview page's.
        public var streamURLs: (mpegTS: String, fragmentedMP4: String, hls: String, page: String) {
            ("\(baseURL)/live.ts\(query)", "\(baseURL)/live.mp4\(query)", "\(baseURL)/live.m3u8\(query)", "\(baseURL)/\(query)")
        }

        /// The HLS multivariant playlist (`/index.m3u8`: every encode with its `CODECS`), the URL an app
        /// gives `AVPlayer(url:)`.
        public var hlsMultivariantURL: String { "\(baseURL)/index.m3u8\(query)" }
    }
}

/// `Session.ServedEndpoints` by its short name, inside the package.
package typealias ServedEndpoints = Session.ServedEndpoints
