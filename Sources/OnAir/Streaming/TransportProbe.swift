import Foundation
import OnAirSRT

/// Reads one connection's `TransportMeasurement` from its transport: a TCP socket's kernel
/// figures or an SRT socket's statistics. Safe to call from any thread.
final class TransportProbe: @unchecked Sendable {
    private enum Source {
        #if canImport(Glibc)
        case tcp(TCPSocketProbe)
        #endif
        case srt(SRTSocket)
    }
    private let source: Source
    private let lock = NSLock()
    // Under `lock`:
    private var handedBytes = 0
    private var minimumRoundTrip: Double?

    #if canImport(Glibc)
    /// Reads a TCP socket's figures.
    init(tcp: TCPSocketProbe) { source = .tcp(tcp) }
    #endif

    /// Reads an SRT socket's statistics; the sink reports every byte it hands to the socket (`handed`).
    init(srt: SRTSocket) { source = .srt(srt) }

    /// Counts bytes given to the SRT socket (libsrt's buffer figures are relative to them).
    func handed(_ count: Int) {
        lock.lock()
        handedBytes += count
        lock.unlock()
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
            lock.lock()
            defer { lock.unlock() }
            let rtt = stats.msRTT > 0 ? stats.msRTT / 1000 : nil
            if let rtt { minimumRoundTrip = min(minimumRoundTrip ?? rtt, rtt) }
            let queued = Int(max(stats.byteSndBuf, 0))
            return TransportMeasurement(
                bytesAcknowledged: max(0, handedBytes - queued), queuedBytes: queued,
                queuedSeconds: Double(max(stats.msSndBuf, 0)) / 1000, roundTripTime: rtt, minimumRoundTripTime: minimumRoundTrip,
                deliveryRate: stats.mbpsBandwidth > 0 ? Int(stats.mbpsBandwidth * 1_000_000) : nil,
                droppedPackets: Int(stats.pktSndDropTotal), retransmittedPackets: Int(stats.pktRetransTotal),
                lostPackets: Int(stats.pktSndLossTotal))
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
