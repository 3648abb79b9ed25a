#if os(Linux)
import Foundation
import OnAirCore
import OnAirSRT

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg

/// SRT through libsrt directly (OnAirSRT): a caller connects, a listener stays bound between
/// connections so a receiver can come back; FFmpeg's MPEG-TS muxer writes straight into the
/// socket, paced (`SRTO_MAXBW`) and gated by the acknowledged rate (`TransportProbe`).
final class SRTConnector: NetworkConnector, Sendable {
    private let target: StreamTarget
    private let policy: ReconnectPolicy
    /// Used on the connector thread, closed by `close()` after that thread ended.
    private let listener = Locked<SRTSocket?>(nil)

    init(target: StreamTarget, policy: ReconnectPolicy) {
        self.target = target
        self.policy = policy
    }

    func connect(known: [MediaType: FormatDescription], deadline: NetworkDeadline, pacingBitRate: Int?) throws
        -> (NetworkConnection, TransportProbe?)
    {
        let endpoint = try SRTEndpoint(url: target.url, sendTimeout: policy.sendTimeout)
        let socket: SRTSocket
        if endpoint.isListener {
            let listener = try bound(endpoint)
            var accepted: SRTSocket?
            while accepted == nil {
                if deadline.hasExpired {
                    throw SRTError(code: -1, operation: "srt_accept(\(target.displayName))", message: "stopped waiting")
                }
                accepted = try listener.accept(timeout: .milliseconds(250))
            }
            socket = accepted!
        } else {
            socket = try SRTSocket.connect(
                host: endpoint.host, port: endpoint.port, options: endpoint.options,
                timeout: .milliseconds(Int64(policy.connectTimeout * 1000)))
        }
        let probe = TransportProbe(srt: socket)
        if let pacingBitRate {  // set only when the output is paced
            do {
                try socket.setMaximumBandwidth(bytesPerSecond: NetworkSink.srtMaximumBandwidth(streamBitRate: pacingBitRate))
            } catch {
                socket.close()
                throw error
            }
        }
        let output = PacketOutput(
            packetSize: endpoint.payloadSize,
            write: { bytes in
                probe.waitForSendRoom(maximumWait: 1)
                try socket.send(bytes)
                probe.handed(bytes.count)
            }, close: { socket.close() })
        do {
            let connection = try NetworkConnection(
                output: output, displayName: target.displayName, format: target.muxer,
                descriptions: known, muxerOptions: target.muxerOptions)
            return (connection, probe)
        } catch {
            socket.close()
            throw error
        }
    }

    /// A listener URL's socket, bound at the first call (port 0: the kernel picks the port) and kept
    /// until `close()`.
    private func bound(_ endpoint: SRTEndpoint) throws -> SRTSocket {
        try listener.withLock { listener in
            if let listener { return listener }
            let made = try SRTSocket.listen(host: endpoint.host, port: endpoint.port, backlog: 1, options: endpoint.options)
            listener = made
            return made
        }
    }

    func listen() throws -> Int? {
        let endpoint = try SRTEndpoint(url: target.url, sendTimeout: policy.sendTimeout)
        guard endpoint.isListener else { return nil }
        return Int(try bound(endpoint).localPort)
    }

    func close() {
        let listener = self.listener.withLock { listener in
            defer { listener = nil }
            return listener
        }
        listener?.close()
    }
}
#endif
#endif
