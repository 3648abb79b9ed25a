/// Where a source sends what it captures. The closures are called on the source's own thread,
/// in capture order per stream, and must not block for long.
package struct CaptureHandlers: Sendable {
    /// Receives each captured picture, stamped on the session's `CaptureClock`.
    public var video: @Sendable (VideoFrame) -> Void
    /// Receives each captured run of samples, stamped on the session's `CaptureClock`.
    public var audio: @Sendable (PCMBuffer) -> Void
    /// Called once when the source stops by itself: nil at the end of a file, or the error that stopped it.
    public var ended: @Sendable ((any Error)?) -> Void
    /// Receives the number of video frames the source itself could not capture in time (skipped
    /// capture slots), so that they count as dropped.
    public var skippedFrames: @Sendable (Int) -> Void

    /// Creates handlers from closures.
    public init(
        video: @escaping @Sendable (VideoFrame) -> Void = { _ in },
        audio: @escaping @Sendable (PCMBuffer) -> Void = { _ in },
        ended: @escaping @Sendable ((any Error)?) -> Void = { _ in },
        skippedFrames: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.video = video
        self.audio = audio
        self.ended = ended
        self.skippedFrames = skippedFrames
    }
}

/// A camera, microphone, screen, file or synthetic generator delivering timestamped media.
///
/// `start` returns once capture is running on the source's own thread; `stop` returns after the
/// source has delivered its last item. A source may deliver video, audio or both.
package protocol CaptureSource: AnyObject, Sendable {
    /// What the source is, for statistics and errors (e.g. "x11::99", "pulse:default").
    var name: String { get }
    /// The kinds of media it delivers.
    var mediaTypes: Set<MediaType> { get }
    /// Starts capturing, stamping on `clock`, delivering to `handlers`.
    func start(clock: CaptureClock, handlers: CaptureHandlers) throws
    /// Stops capturing and waits until nothing more will be delivered.
    func stop()
}
