#if os(Linux)
import Foundation
import OnAirCore

/// One RTSP session of a connection: the path, each track set up (its transport and the client's
/// own SSRC, sequence numbers and timestamp offset) and, once it plays, its viewer in the hub.
struct RTSPLiveSession: Sendable {
    /// Where a track's packets go.
    enum Transport: Sendable {
        /// To the client's RTP and RTCP ports, from the server's shared sockets of the track's type.
        case udp(rtp: SocketAddress, rtcp: SocketAddress, server: (rtp: Int32, rtcp: Int32, port: Int))
        /// Interleaved on the connection, on these channels.
        case tcp(rtp: UInt8, rtcp: UInt8)
    }

    /// One track set up.
    struct Track: Sendable {
        var mediaType: MediaType
        var rewrite: RTPClientRewrite
        var transport: Transport
    }

    /// 16 hexadecimal digits, random.
    let id: String
    /// The served path ("/live").
    let path: String
    /// The tracks set up, by track number (the SDP's `stream=` control).
    var tracks: [Int: Track] = [:]
    /// The viewer, from the first PLAY on.
    var viewer: ServeViewer?
    /// The chunk being sent and its next packet (held while a UDP join is paced).
    var held: (chunk: ServeChunk, next: Int)?
    /// Paces a UDP client's join (the keyframe cache at twice real time).
    var pacer: ServeJoinPacer?
    /// When the client's first PLAY was answered (the loop's clock): audio published before it
    /// (the keyframe cache's) is not sent.
    var playedAt: Double?

    /// A new session of `path`.
    init(path: String) {
        id = String(format: "%016llX", UInt64.random(in: .min ... .max))
        self.path = path
    }

    /// Whether any track goes over UDP.
    var usesUDP: Bool {
        tracks.values.contains { if case .udp = $0.transport { true } else { false } }
    }

    /// Whether any track goes interleaved on the connection.
    var usesTCP: Bool {
        tracks.values.contains { if case .tcp = $0.transport { true } else { false } }
    }

    /// The Session header's value.
    func header(timeout: Double) -> String {
        "\(id);timeout=\(Int(timeout))"
    }

    /// The session ID a request's Session header names (before any `;timeout=`).
    static func id(fromHeader value: String) -> String {
        String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
    }

    /// The tracks a source serves, video first: its packetizers as they stand.
    static func tracks(of source: ServeElementarySink) -> [RTPPacketizer] {
        [MediaType.video, .audio].filter(source.streams.contains).compactMap(source.rtpTrack)
    }

    /// The served path and track number a SETUP's path names: `<path>/stream=<n>` (or `trackID=<n>`), or a served
    /// path alone for its first track.
    static func track(in requested: String, paths: [String: ServeElementarySink]) -> (path: String, index: Int)? {
        if paths[requested] != nil { return (requested, 0) }
        guard let slash = requested.lastIndex(of: "/") else { return nil }
        let path = String(requested[..<slash])
        let last = requested[requested.index(after: slash)...]
        let number = last.hasPrefix("stream=") ? last.dropFirst(7) : last.hasPrefix("trackID=") ? last.dropFirst(8) : nil
        guard paths[path] != nil, let number, let index = Int(number), (0..<8).contains(index) else { return nil }
        return (path, index)
    }

    /// PLAY's RTP-Info (`RTSPRange.rtpInfo`): each track's URL, the client's next sequence number
    /// and the client's RTP timestamp for `start`, the media time it starts at; empty when that
    /// is not known (no RTP-Info is then sent).
    func rtpInfo(base: String, source: ServeElementarySink, start: MediaTime?) -> String {
        guard let start else { return "" }
        let entries = tracks.keys.sorted().compactMap { index -> RTSPRange.Track? in
            guard let track = tracks[index], let packetizer = source.rtpTrack(track.mediaType) else { return nil }
            return RTSPRange.Track(
                url: "\(base)stream=\(index)", seq: track.rewrite.nextSequenceNumber,
                rtptime: track.rewrite.timestamp(forShared: packetizer.timestamp(at: start)))
        }
        return RTSPRange.rtpInfo(entries)
    }
}
#endif
