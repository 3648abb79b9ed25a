import OnAirCore

/// Whether the start of a stream with both video and audio owes a second keyframe.
///
/// A served output (`/live.mp4`, `/live.ts`, HLS, RTSP's DESCRIBE) starts at the first video
/// keyframe once every stream has described itself (a file's muxer holds its packets instead). The video encoder's first packet is a
/// keyframe, but the audio encoder's first packet usually comes a little later (an AAC frame is
/// 21 ms of sound, and the encoder holds one back): such an output would wait for the next
/// scheduled keyframe — a whole GOP, 2 s at the defaults — before a viewer sees anything, at every
/// start and restart of the server. So the first audio packet after the first video keyframe asks
/// for one more keyframe at once; none when audio came first, and none with one kind of media.
package struct StartingKeyFrame: Sendable {
    /// Whether the start is settled (nothing more is owed, or it was asked for).
    package private(set) var settled: Bool
    private var keyFrameSeen = false

    /// The start of a stream with both video and audio (`audioAndVideo`), or with one of them.
    package init(audioAndVideo: Bool) {
        settled = !audioAndVideo
    }

    /// Notes a packet handed to the outputs; true when a keyframe must be forced now (once).
    package mutating func note(_ mediaType: MediaType, isKeyframe: Bool) -> Bool {
        guard !settled else { return false }
        switch mediaType {
        case .video:
            if isKeyframe { keyFrameSeen = true }
            return false
        case .audio:
            settled = true
            return keyFrameSeen
        }
    }
}
