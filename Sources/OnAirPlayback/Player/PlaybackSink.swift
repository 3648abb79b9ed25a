#if os(Linux)
import OnAirCore

/// Where the player hands decoded media when something shows or plays it (the window and the
/// speakers); called on the player's receiving thread, in decoding order.
///
/// A sink may block in `video`/`audio` to pace a file; it must return promptly once `stop()` is
/// asked of the player (check `isStopping`).
package protocol PlaybackSink: AnyObject, Sendable {
    /// A new input was opened (the first time, or again after the stream came back).
    func inputOpened(live: Bool, hasVideo: Bool, hasAudio: Bool)
    /// A decoded video frame.
    func video(_ frame: VideoFrame)
    /// A decoded run of audio.
    func audio(_ buffer: PCMBuffer)
    /// The input ended or failed and the player is trying to open it again.
    func inputLost(reason: String)
    /// The input ended for good (no more media will come).
    func inputEnded()
    /// The input's timestamps jumped and were joined into one timeline (see `TimelineJoiner`):
    /// the media times go on, but a live input's wall-clock pacing should start again.
    func timestampsJumped()
}

extension PlaybackSink {
    /// By default a jump needs nothing: the joined timeline runs on.
    public func timestampsJumped() {}
}
#endif
