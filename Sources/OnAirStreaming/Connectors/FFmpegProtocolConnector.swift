#if os(Linux)
import OnAirCore

#if canImport(OnAirFFmpeg)
import Foundation
import OnAirFFmpeg

/// RTMP, RTMPS, TCP and UDP through FFmpeg's own protocols: FFmpeg opens the socket and the
/// muxer writes into it; for TCP-based transports the new socket is found afterwards (the one to
/// the peer that was not there before) so its figures feed adaptive bitrate and its unsent bytes
/// are bounded (`TCP_NOTSENT_LOWAT`).
struct FFmpegProtocolConnector: NetworkConnector {
    let target: StreamTarget
    let policy: ReconnectPolicy
    let sendBufferBytes: Int?

    func connect(known: [MediaType: FormatDescription], deadline: NetworkDeadline, pacingBitRate: Int?) throws
        -> (NetworkConnection, TransportProbe?)
    {
        let endpoint = tcpEndpoint
        let before = endpoint.map { TCPSocketProbe.sockets(connectedTo: $0.host, port: $0.port) } ?? []
        let connection = try NetworkConnection(
            url: target.url, displayName: target.displayName, format: target.muxer, descriptions: known,
            muxerOptions: target.muxerOptions,
            protocolOptions: target.protocolOptions(sendTimeout: policy.sendTimeout, sendBufferBytes: sendBufferBytes),
            deadline: deadline)
        // FFmpeg keeps its socket to itself: the new one is the socket to the peer that was not there before.
        guard let endpoint else { return (connection, nil) }
        let fresh = TCPSocketProbe.sockets(connectedTo: endpoint.host, port: endpoint.port).subtracting(before)
        guard fresh.count == 1, let descriptor = fresh.first else { return (connection, nil) }
        let socket = TCPSocketProbe(descriptor: descriptor)
        if let sendBufferBytes { socket.limitUnsentBytes(NetworkSink.unsentBytesLimit(sendBufferBytes: sendBufferBytes)) }
        return (connection, TransportProbe(tcp: socket))
    }

    func close() {}

    /// The peer of a TCP-based transport (host nil: a `listen=1` URL, matched by local port).
    private var tcpEndpoint: (host: String?, port: UInt16)? {
        guard target.transport.isTCP, let components = URLComponents(string: target.url), let host = components.host else { return nil }
        let port = components.port ?? (target.transport == .rtmps ? 443 : target.transport == .rtmp ? 1935 : 0)
        guard (1...65_535).contains(port) else { return nil }
        return (target.isListener ? nil : host, UInt16(port))
    }
}
#endif
#endif
