#if os(Linux)
/// Decides, packet by packet, what one WebRTC viewer takes: nothing before its handshake, then from
/// a keyframe on everything while what waits for it stays under `limit` bytes.
///
/// What waits is the viewer's own queue and its pipeline's backlog (the appsrcs' queues, which
/// grow when the viewer's streaming thread falls behind). Over the limit the queue is dropped and
/// the viewer waits for a keyframe that fits (a skip): a slow viewer costs its own picture, never
/// the memory or the latency of the others. A pure value, so the policy is tested without a pipeline.
package struct WebRTCViewerGate: Sendable, Equatable {
    /// Where the viewer is.
    package enum State: Sendable, Equatable {
        /// DTLS is not up yet: media would be lost.
        case connecting
        /// Up (or after a skip), waiting for a keyframe to start from.
        case waitingForKeyFrame
        /// Receiving.
        case live
    }

    /// What to do with a packet.
    package enum Decision: Sendable, Equatable {
        /// Leave it out.
        case refuse
        /// Queue it.
        case take
        /// Drop what is queued, then queue it (a keyframe that starts afresh).
        case restart
        /// Drop what is queued and this packet; wait for a keyframe (ask for one).
        case skip
    }

    /// Bytes that may wait for the viewer, queue and pipeline together.
    package let limit: Int
    /// Where the viewer is now.
    package private(set) var state = State.connecting
    /// Times the viewer fell behind and dropped its queue.
    package private(set) var skips = 0

    /// A gate allowing `limit` bytes to wait.
    package init(limit: Int) {
        self.limit = limit
    }

    /// DTLS is up: the next fitting keyframe starts the viewer.
    package mutating func connected() {
        if state == .connecting { state = .waitingForKeyFrame }
    }

    /// The decision for a packet of `bytes` (`keyFrame`: a video keyframe) with `queued` bytes in
    /// the viewer's queue and `backlog` in its pipeline.
    package mutating func admit(bytes: Int, keyFrame: Bool, queued: Int, backlog: Int) -> Decision {
        switch state {
        case .connecting:
            return .refuse
        case .waitingForKeyFrame:
            guard keyFrame, backlog + bytes <= limit else { return .refuse }
            state = .live
            return queued > 0 ? .restart : .take
        case .live:
            guard queued + backlog + bytes > limit else { return .take }
            skips += 1
            if keyFrame, backlog + bytes <= limit { return .restart }
            state = .waitingForKeyFrame
            return .skip
        }
    }
}
#endif
