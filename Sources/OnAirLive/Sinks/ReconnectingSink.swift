import OnAirCore

/// A sink whose connection may drop and come back (see `NetworkSink`).
///
/// `LiveSession` hands it a way to ask the video encoder for an IDR, so a new connection starts
/// at once on a fresh keyframe, and adds its counters to `LiveStatistics`.
package protocol ReconnectingSink: PacketSink, Sendable {
    /// Sets what the sink calls to have the next encoded video frame be a keyframe.
    func setKeyFrameRequester(_ request: @escaping @Sendable () -> Void)
    /// The connection counters; safe to read from any thread.
    var connectionStatistics: ConnectionStatistics { get }
    /// Drops what is queued for the connection until a video keyframe decoded after `time`
    /// (asking the encoder for one), to cut a backlog the link could not carry. Called on the
    /// writing thread, between `write` calls; a call while already skipping changes nothing.
    func skipToKeyFrame(after time: MediaTime)
    /// What the transport itself reports now (acknowledged bytes, its send buffer, round trip),
    /// or nil when offline or the transport gives no feedback (UDP). Read by the session's
    /// `TransportSampler` alone, on its thread; everything else reads the sampler's latest reading.
    func measureTransport() -> TransportMeasurement?
    /// Told by the sampler when the peer has acknowledged more since its previous reading: the
    /// connection is delivering, however slowly (a send-stall deadline may start again).
    func transportDelivered()
    /// The stream's planned rate (video and audio, bits per second) as adaptive bitrate sets it,
    /// for transports that pace their sending (SRT); nil: unpaced. Safe to call from any thread.
    func setPacingRate(bitsPerSecond: Int?) throws
}

extension ReconnectingSink {
    /// No transport figures: a sink without them does not implement this.
    public func measureTransport() -> TransportMeasurement? { nil }
    /// Does nothing: a sink without send-stall deadlines does not implement this.
    public func transportDelivered() {}
    /// Does nothing: a sink whose transport does not pace does not implement this.
    public func setPacingRate(bitsPerSecond: Int?) throws {}
}
