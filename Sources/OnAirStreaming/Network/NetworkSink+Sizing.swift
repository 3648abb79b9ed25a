#if os(Linux)
extension NetworkSink {
    /// A TCP send buffer of about an eighth of a second at `streamBitRate` (at least 16 KiB), so
    /// a slow link backs up in the queue adaptive bitrate and the backlog bound measure instead of
    /// in the kernel, which they cannot see into. (Linux doubles the size given; the buffer still
    /// carries the rate over round trips up to about 250 ms.)
    public static func sendBufferBytes(streamBitRate: Int) -> Int {
        max(16_384, streamBitRate / 8 / 8)
    }

    /// The most unsent bytes a TCP socket with a send buffer of `sendBufferBytes` holds
    /// (`TCP_NOTSENT_LOWAT`): a quarter of the buffer, at least 8 KiB. The buffer is sized for the
    /// highest rate; at a lower one it would hold seconds the viewer waits for, out of reach of a
    /// backlog cut, while a small unsent part keeps that backlog in OnAir's queue.
    public static func unsentBytesLimit(sendBufferBytes: Int) -> Int {
        max(8_192, sendBufferBytes / 4)
    }

    /// The most an SRT connection sends per second (`SRTO_MAXBW`, bytes) for a stream planned at
    /// `streamBitRate`: twice it, room for the container's and SRT's overhead, the encoder's peaks
    /// and resent packets. Paced like this, a keyframe's burst waits in SRT's buffer (where the
    /// statistics show it) instead of overflowing a bottleneck's queue, where every lost packet
    /// comes back too late for a receiver with a short latency and tears a frame.
    public static func srtMaximumBandwidth(streamBitRate: Int) -> Int64 {
        Int64(Double(max(streamBitRate, 1)) * 2 / 8)
    }
}
#endif
