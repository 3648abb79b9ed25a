/// The playback clock that decides when video frames are due: the audio being heard when there
/// is sound, else the wall clock anchored at the first frame.
///
/// Times are media seconds (the stream's presentation timestamps); `now` is a monotonic wall
/// clock in seconds.
package struct MasterClock: Sendable, Equatable {
    /// Where the clock's time comes from.
    public enum Source: Sendable, Equatable {
        /// The audio device: the media time of the sample being heard.
        case audio
        /// The wall clock, from an anchor.
        case wall
    }

    /// The source in use.
    public var source: Source
    /// For the wall clock: the media time shown at wall time `anchorWall`.
    public private(set) var anchorMedia: Double?
    /// For the wall clock: the wall time at which media time `anchorMedia` shows.
    public private(set) var anchorWall = 0.0
    /// For the audio clock: the media time at the end of the audio queued last.
    public var audioEnd: Double?
    /// For the audio clock: media seconds of audio waiting (queued plus the device's buffer).
    public var audioWaiting = 0.0
    /// Wall-clock seconds spent paused (wall source), and when the current pause began.
    private var pausedSince: Double?

    /// A clock reading from `source`.
    public init(source: Source) { self.source = source }

    /// Starts the wall clock so that media time `media` is shown `delay` seconds after `now`.
    public mutating func anchor(media: Double, now: Double, delay: Double = 0) {
        anchorMedia = media
        anchorWall = now + delay
    }

    /// Moves the wall clock's anchor by `seconds` of media (positive: later media is due sooner).
    public mutating func skip(_ seconds: Double) {
        if let media = anchorMedia { anchorMedia = media + seconds }
    }

    /// Forgets the anchor and the audio position (a new input or a jump in the timestamps).
    public mutating func reset() {
        anchorMedia = nil
        audioEnd = nil
        audioWaiting = 0
        pausedSince = nil
    }

    /// Pauses or resumes the wall clock at `now` (the audio clock stops by itself when the device pauses).
    public mutating func setPaused(_ paused: Bool, now: Double) {
        if paused, pausedSince == nil { pausedSince = now }
        if !paused, let since = pausedSince {
            anchorWall += now - since
            pausedSince = nil
        }
    }

    /// The media time now, or nil before the clock has started.
    public func time(now: Double) -> Double? {
        switch source {
        case .audio:
            return audioEnd.map { $0 - audioWaiting }
        case .wall:
            guard let anchorMedia else { return nil }
            return anchorMedia + ((pausedSince ?? now) - anchorWall)
        }
    }
}
