#if os(Linux)
/// Decides when the next message may be handed to an SRT socket so that it still reaches the
/// receiver within the latency agreed with it.
///
/// libsrt stamps a message when it is handed over and the receiver plays it at that stamp plus
/// the latency; a message lost on the way (a bottleneck's queue overflowing) is resent only while
/// there is time left, after which the receiver skips it (too-late packet drop, the live
/// default): a hole the decoder sees as damage. What libsrt holds beyond what the link clears in
/// time lengthens the bottleneck's queue until it overflows and leaves resends no time, so a
/// backlog has to wait in OnAir's queue instead, where the adaptive bitrate loop measures it and
/// a cut lands on a keyframe. The gate holds a message while what libsrt holds would keep it
/// longer than a round trip plus `latencyShare` of the latency (the rest is left for a resend),
/// so a link with a long round trip still carries its rate: judged by how long
/// the oldest byte libsrt holds has waited, and by how long what it holds takes at the rate the
/// peer has been acknowledging.
///
/// The acknowledged rate is the link's rate only while the link is behind (bytes wait longer than
/// a round trip and two acknowledgement intervals); otherwise it is merely the rate the stream
/// offered, and holding a keyframe burst to it would hold a fast link to the stream's average
/// (with a 20 ms latency: a backlog of a second on loopback). So the byte check applies while the
/// link is behind, and for `rateMemory` after a spell of it (a link that fell behind on one burst
/// is judged by the rate it then showed on the next; shorter spells may only lower that rate); a
/// link never seen behind is left to the age check.
///
/// A pure value fed with the bytes handed over and libsrt's buffer level; the caller polls it.
struct SRTSendGate {
    /// The share of the latency a message may spend queued after it is handed over.
    var latencyShare = 0.5
    /// The size of the message about to go (SRT's live payload): it counts as held too. With nothing
    /// held a message always goes, so a link too slow for one message per budget gets one at a time.
    var messageBytes = 1316
    /// The span over which the acknowledgement rate is measured, in seconds.
    var rateWindow = 0.1
    /// How often libsrt acknowledges (its full ACK period), in seconds.
    var acknowledgementInterval = 0.01
    /// How long the link has to be behind before the rate it shows is remembered, in seconds
    /// (shorter spells are a scheduling hiccup more likely than a slow link).
    var behindToRemember = 0.05
    /// How long a rate measured while the link was behind still judges bursts, in seconds (a few
    /// keyframe intervals).
    var rateMemory = 5.0

    /// Bytes handed over since the start.
    private(set) var handedBytes = 0
    /// Each message handed over and not yet known acknowledged: its end offset and when it went.
    private var handed: [(end: Int, time: Double)] = []
    private var handedHead = 0
    /// Acknowledged totals over the last `rateWindow` and a bit, oldest first.
    private var acknowledged: [(time: Double, bytes: Int)] = []
    private var acknowledgedHead = 0
    /// Since when the link has been behind (nil: it is not).
    private var behindSince: Double?
    /// The acknowledged rate (bytes per second) the last time the link had been behind long enough.
    private var remembered: (rate: Double, time: Double)?

    init() {}

    /// Counts a message of `count` bytes handed to the socket at `time` (seconds, monotonic).
    mutating func hand(_ count: Int, at time: Double) {
        handedBytes += count
        handed.append((handedBytes, time))
    }

    /// Whether a message may be handed over at `now`, with `bufferedBytes` still held by libsrt
    /// (sent and unacknowledged, or waiting to be sent), the agreed `latency` and the link's
    /// smallest `roundTrip` (seconds). A latency of zero (no timestamp-based delivery) never holds.
    mutating func allows(at now: Double, bufferedBytes: Int, latency: Double, roundTrip: Double) -> Bool {
        let acknowledgedNow = max(0, handedBytes - max(0, bufferedBytes))
        while handedHead < handed.count && handed[handedHead].end <= acknowledgedNow { handedHead += 1 }
        if handedHead > 256 && handedHead * 2 > handed.count {
            handed.removeFirst(handedHead)
            handedHead = 0
        }
        acknowledged.append((now, acknowledgedNow))
        while acknowledgedHead + 1 < acknowledged.count && acknowledged[acknowledgedHead + 1].time <= now - rateWindow {
            acknowledgedHead += 1
        }
        if acknowledgedHead > 256 && acknowledgedHead * 2 > acknowledged.count {
            acknowledged.removeFirst(acknowledgedHead)
            acknowledgedHead = 0
        }
        guard latency > 0, bufferedBytes > 0 else {
            behindSince = nil
            return true
        }
        // What is held anyway: a round trip and an acknowledgement interval of sending.
        let held = roundTrip + acknowledgementInterval
        let budget = held + latency * latencyShare
        // How long the oldest byte libsrt holds has waited.
        let oldestAge = handedHead < handed.count ? now - handed[handedHead].time : 0
        if oldestAge > budget { return false }
        // How long what it holds takes at the rate the peer has been acknowledging — the link's
        // rate while it is behind, or as it last was after a spell behind.
        let first = acknowledged[acknowledgedHead]
        let span = now - first.time
        let measured = span >= rateWindow / 2 ? Double(acknowledgedNow - first.bytes) / span : nil
        var rate: Double?
        if oldestAge > held + acknowledgementInterval {
            let since = behindSince ?? now
            behindSince = since
            rate = measured
            if let measured {
                if now - since >= behindToRemember {
                    remembered = (measured, now)
                } else if let earlier = remembered, measured < earlier.rate {
                    remembered = (measured, earlier.time)  // a short spell may lower it, never raise it
                }
            }
        } else {
            behindSince = nil
            if let remembered, now - remembered.time <= rateMemory { rate = max(remembered.rate, measured ?? 0) }
        }
        if let rate, Double(bufferedBytes + messageBytes) > rate * budget { return false }
        return true
    }
}
#endif
