#if os(Linux)
import Foundation
import OnAirCore
import OnAirLive
import OnAirSRT

/// Reads one connection's `TransportMeasurement` from its transport: a TCP socket's kernel
/// figures or an SRT socket's statistics. Safe to call from any thread.
final class TransportProbe: Sendable {
    private enum Source {
        #if canImport(Glibc)
        case tcp(TCPSocketProbe)
        #endif
        case srt(SRTSocket)
    }
    private let source: Source
    private struct State {
        var handedBytes = 0
        var minimumRoundTrip: Double?
        var gate = SRTSendGate()
        var agreedLatency = 0.0
        /// When `waitForSendRoom` next reads the statistics (latency, round trip); its caller's thread only.
        var nextStatistics = 0.0

        /// The statistics' round trip in seconds (nil when libsrt has none yet), kept in
        /// `minimumRoundTrip`.
        @discardableResult
        mutating func noteRoundTrip(_ stats: SRTStatistics) -> Double? {
            guard stats.msRTT > 0 else { return nil }
            let rtt = stats.msRTT / 1000
            minimumRoundTrip = min(minimumRoundTrip ?? rtt, rtt)
            return rtt
        }
    }
    private let state = Locked(State())

    #if canImport(Glibc)
    /// Reads a TCP socket's figures.
    init(tcp: TCPSocketProbe) { source = .tcp(tcp) }
    #endif

    /// Reads an SRT socket's statistics; the sink reports every byte it hands to the socket (`handed`).
    init(srt: SRTSocket) { source = .srt(srt) }

    /// Counts bytes given to the SRT socket (libsrt's buffer figures are relative to them).
    func handed(_ count: Int) {
        let now = ProcessInfo.processInfo.systemUptime
        state.withLock { state in
            state.handedBytes += count
            state.gate.hand(count, at: now)
        }
    }

    /// The figures now, or nil when the transport can no longer say.
    func measure() -> TransportMeasurement? {
        switch source {
        #if canImport(Glibc)
        case .tcp(let probe):
            return probe.measure()
        #endif
        case .srt(let socket):
            guard let stats = try? socket.statistics(clear: false, instantaneous: true) else { return nil }
            let (rtt, handedBytes, minimumRoundTrip) = state.withLock { state in
                (state.noteRoundTrip(stats), state.handedBytes, state.minimumRoundTrip)
            }
            let queued = Int(max(stats.byteSndBuf, 0))
            return TransportMeasurement(
                bytesAcknowledged: max(0, handedBytes - queued), queuedBytes: queued,
                queuedSeconds: Double(max(stats.msSndBuf, 0)) / 1000, roundTripTime: rtt, minimumRoundTripTime: minimumRoundTrip,
                deliveryRate: stats.mbpsBandwidth > 0 ? Int(stats.mbpsBandwidth * 1_000_000) : nil,
                droppedPackets: Int(stats.pktSndDropTotal), retransmittedPackets: Int(stats.pktRetransTotal),
                lostPackets: Int(stats.pktSndLossTotal))
        }
    }

    /// For SRT, waits (at most `maximumWait` seconds) until `SRTSendGate` lets the next message
    /// go: while libsrt holds more than the link clears within a round trip plus half the latency
    /// agreed with the peer, the backlog stays in OnAir's queue. Other transports return at once.
    /// Called from the sink's sending thread only.
    func waitForSendRoom(maximumWait: Double) {
        guard case .srt(let socket) = source else { return }
        let start = ProcessInfo.processInfo.systemUptime
        while true {
            let now = ProcessInfo.processInfo.systemUptime
            if now >= state.withLock({ $0.nextStatistics }),
                let stats = try? socket.statistics(clear: false, instantaneous: true)
            {
                state.withLock { state in
                    state.agreedLatency = Double(max(stats.msSndTsbPdDelay, 0)) / 1000
                    state.noteRoundTrip(stats)
                    state.nextStatistics = now + 0.1
                }
            }
            guard let level = try? socket.sendBufferLevel() else { return }
            let allowed = state.withLock {
                $0.gate.allows(at: now, bufferedBytes: level.bytes, latency: $0.agreedLatency, roundTrip: $0.minimumRoundTrip ?? 0)
            }
            if allowed || now - start >= maximumWait { return }
            usleep(1_000)
        }
    }

    /// Sets the most an SRT connection sends per second, retransmissions included (`SRTO_MAXBW`;
    /// -1: no limit). Other transports are left as they are.
    func setMaximumBandwidth(bytesPerSecond: Int64) throws {
        if case .srt(let socket) = source { try socket.setMaximumBandwidth(bytesPerSecond: bytesPerSecond) }
    }

    /// Makes closing the connection reset it at once (TCP: no lingering in the send buffer), so a
    /// server sees the old publisher gone before a new connection arrives.
    func resetOnClose() {
        #if canImport(Glibc)
        if case .tcp(let probe) = source { probe.resetOnClose() }
        #endif
    }
}
#endif
