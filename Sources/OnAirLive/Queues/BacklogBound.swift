import Foundation
import OnAirCore

/// Keeps the delay in front of one network output within `maximumBacklog` seconds of media: when
/// its queue and its transport together hold more, the sink skips to a fresh keyframe (the
/// viewer sees a jump; the delay stays bounded). Adaptive bitrate may also ask for a skip when a
/// link collapses under the stream. Checked on the sink's thread before each packet is written.
final class BacklogBound: Sendable {
    private let sink: any ReconnectingSink
    private let maximumBacklog: Double?
    /// The transport's backlog in seconds, from the session's sampler.
    private let transportSeconds: @Sendable () -> Double
    private let skipRequested = Locked(false)

    init(sink: any ReconnectingSink, maximumBacklog: Double?, transportSeconds: @escaping @Sendable () -> Double) {
        self.sink = sink
        self.maximumBacklog = maximumBacklog
        self.transportSeconds = transportSeconds
    }

    /// Cuts the backlog before the next packet, whatever its size.
    func requestSkip() {
        skipRequested.withLock { $0 = true }
    }

    /// Before `packet` is written; `newest` is the newest packet queued behind it (and the
    /// newest video packet), nil when nothing was queued.
    func check(_ packet: EncodedPacket, newest: (time: Double, video: MediaTime?)?) {
        let skipNow = skipRequested.withLock { requested in
            defer { requested = false }
            return requested
        }
        guard let newest else { return }
        // Everything between the encoder and the wire counts: this queue, the socket's or SRT's
        // send buffer, and the network's queue seen in the round trip. A skip only cuts this
        // queue, and each one costs a keyframe: it waits until at least half the bound is queued
        // here, so a transport buffer that alone holds about the bound does not turn the stream
        // into keyframes.
        let queuedHere = newest.time - packet.dts.seconds
        let over = maximumBacklog.map { queuedHere >= $0 / 2 && queuedHere + transportSeconds() > $0 } ?? false
        if skipNow || over {
            // Any video frame encoded from now on — the keyframe the sink asks for — comes after
            // the newest one queued.
            sink.skipToKeyFrame(after: newest.video ?? MediaTime(seconds: newest.time))
        }
    }
}
