#if os(Linux)
import CSRT

/// One reading of libsrt's connection statistics (`srt_bstats`/`srt_bistats`), field names as in libsrt.
///
/// "Total" fields count since the connection started; the others since the last reading that
/// cleared them; the instantaneous fields (RTT, bandwidth, buffers) describe the moment of reading.
package struct SRTStatistics: Sendable, Equatable {
    /// Time since the connection started, in ms.
    package var msTimeStamp: Int64 = 0

    /// Data packets sent, including retransmissions, since the start.
    package var pktSentTotal: Int64 = 0
    /// Data bytes sent, including retransmissions, since the start.
    package var byteSentTotal: UInt64 = 0
    /// Data bytes the application handed to `send`, since the start (no retransmissions).
    package var byteSentUniqueTotal: UInt64 = 0
    /// Packets the sender learned were lost, since the start.
    package var pktSndLossTotal: Int32 = 0
    /// Packets retransmitted, since the start.
    package var pktRetransTotal: Int32 = 0
    /// Packets the sender dropped as too late to send, since the start.
    package var pktSndDropTotal: Int32 = 0
    /// Bytes the sender dropped as too late to send, since the start.
    package var byteSndDropTotal: UInt64 = 0
    /// Packets received, since the start.
    package var pktRecvTotal: Int64 = 0
    /// Bytes received, since the start.
    package var byteRecvTotal: UInt64 = 0
    /// Packets the receiver found missing, since the start.
    package var pktRcvLossTotal: Int32 = 0
    /// Packets the receiver dropped as too late to play, since the start.
    package var pktRcvDropTotal: Int32 = 0
    /// Packets the receiver could not decrypt, since the start.
    package var pktRcvUndecryptTotal: Int32 = 0

    /// Data packets sent since the last clearing reading.
    package var pktSent: Int64 = 0
    /// Data bytes sent since the last clearing reading.
    package var byteSent: UInt64 = 0
    /// Packets reported lost to the sender since the last clearing reading.
    package var pktSndLoss: Int32 = 0
    /// Packets retransmitted since the last clearing reading.
    package var pktRetrans: Int32 = 0
    /// Packets dropped by the sender as too late since the last clearing reading.
    package var pktSndDrop: Int32 = 0
    /// Packets received since the last clearing reading.
    package var pktRecv: Int64 = 0
    /// Packets found lost by the receiver since the last clearing reading.
    package var pktRcvLoss: Int32 = 0
    /// Packets dropped by the receiver as too late since the last clearing reading.
    package var pktRcvDrop: Int32 = 0
    /// Sending rate over the interval, Mb/s.
    package var mbpsSendRate: Double = 0
    /// Receiving rate over the interval, Mb/s.
    package var mbpsRecvRate: Double = 0
    /// Time spent sending (busy) over the interval, in µs.
    package var usSndDuration: Int64 = 0

    /// Current inter-packet sending period, in µs.
    package var usPktSndPeriod: Double = 0
    /// Flow window, in packets.
    package var pktFlowWindow: Int32 = 0
    /// Congestion window, in packets.
    package var pktCongestionWindow: Int32 = 0
    /// Packets in flight (sent, not yet acknowledged).
    package var pktFlightSize: Int32 = 0
    /// Smoothed round-trip time, in ms.
    package var msRTT: Double = 0
    /// libsrt's estimate of the link's bandwidth, Mb/s (from packet pairs).
    package var mbpsBandwidth: Double = 0
    /// Ceiling on the sending rate, Mb/s.
    package var mbpsMaxBW: Double = 0
    /// Free space in the send buffer, in bytes.
    package var byteAvailSndBuf: Int32 = 0
    /// Free space in the receive buffer, in bytes.
    package var byteAvailRcvBuf: Int32 = 0
    /// Maximum segment size, in bytes.
    package var byteMSS: Int32 = 0
    /// Unacknowledged packets in the send buffer.
    package var pktSndBuf: Int32 = 0
    /// Unacknowledged bytes in the send buffer.
    package var byteSndBuf: Int32 = 0
    /// Time span of the send buffer's unacknowledged content, in ms (the sender's queueing delay).
    package var msSndBuf: Int32 = 0
    /// Sender's timestamp-based delivery delay (the latency agreed with the peer), in ms.
    package var msSndTsbPdDelay: Int32 = 0
    /// Undelivered packets in the receive buffer.
    package var pktRcvBuf: Int32 = 0
    /// Undelivered bytes in the receive buffer.
    package var byteRcvBuf: Int32 = 0
    /// Time span of the receive buffer's undelivered content, in ms.
    package var msRcvBuf: Int32 = 0
    /// Receiver's timestamp-based delivery delay, in ms.
    package var msRcvTsbPdDelay: Int32 = 0

    /// Statistics with every figure zero.
    package init() {}

    /// Copies libsrt's structure.
    init(_ perf: SRT_TRACEBSTATS) {
        msTimeStamp = perf.msTimeStamp
        pktSentTotal = perf.pktSentTotal
        byteSentTotal = perf.byteSentTotal
        byteSentUniqueTotal = perf.byteSentUniqueTotal
        pktSndLossTotal = perf.pktSndLossTotal
        pktRetransTotal = perf.pktRetransTotal
        pktSndDropTotal = perf.pktSndDropTotal
        byteSndDropTotal = perf.byteSndDropTotal
        pktRecvTotal = perf.pktRecvTotal
        byteRecvTotal = perf.byteRecvTotal
        pktRcvLossTotal = perf.pktRcvLossTotal
        pktRcvDropTotal = perf.pktRcvDropTotal
        pktRcvUndecryptTotal = perf.pktRcvUndecryptTotal
        pktSent = perf.pktSent
        byteSent = perf.byteSent
        pktSndLoss = perf.pktSndLoss
        pktRetrans = perf.pktRetrans
        pktSndDrop = perf.pktSndDrop
        pktRecv = perf.pktRecv
        pktRcvLoss = perf.pktRcvLoss
        pktRcvDrop = perf.pktRcvDrop
        mbpsSendRate = perf.mbpsSendRate
        mbpsRecvRate = perf.mbpsRecvRate
        usSndDuration = perf.usSndDuration
        usPktSndPeriod = perf.usPktSndPeriod
        pktFlowWindow = perf.pktFlowWindow
        pktCongestionWindow = perf.pktCongestionWindow
        pktFlightSize = perf.pktFlightSize
        msRTT = perf.msRTT
        mbpsBandwidth = perf.mbpsBandwidth
        mbpsMaxBW = perf.mbpsMaxBW
        byteAvailSndBuf = perf.byteAvailSndBuf
        byteAvailRcvBuf = perf.byteAvailRcvBuf
        byteMSS = perf.byteMSS
        pktSndBuf = perf.pktSndBuf
        byteSndBuf = perf.byteSndBuf
        msSndBuf = perf.msSndBuf
        msSndTsbPdDelay = perf.msSndTsbPdDelay
        pktRcvBuf = perf.pktRcvBuf
        byteRcvBuf = perf.byteRcvBuf
        msRcvBuf = perf.msRcvBuf
        msRcvTsbPdDelay = perf.msRcvTsbPdDelay
    }
}
#endif
