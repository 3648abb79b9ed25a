#if os(Linux)
extension PlaybackReport {
    /// What the window and the speakers did (`onair play --json`, under "display", when playing to them).
    public struct Display: Sendable, Codable, Equatable {
        /// Frames shown in the window.
        public var framesShown = 0
        /// Frames dropped because their time had passed when they could be shown.
        public var framesDroppedLate = 0
        /// Frames dropped to bring a live input's delay back to the target.
        public var framesDroppedCatchUp = 0
        /// Milliseconds of audio dropped (live catch-up after a burst).
        public var audioDroppedMs = 0.0
        /// Milliseconds of audio removed by playing it slightly faster (live catch-up).
        public var audioShortenedMs = 0.0
        /// Window picture size changes followed (resolution changes mid-stream).
        public var sizeChanges = 0
        /// Times the input was lost and opened again.
        public var reconnects = 0
        /// "audio" or "wall": which clock paced the video.
        public var clock = "wall"
        /// The audio device's rate and channel count, nil without sound.
        public var audioDevice: String?
        /// The live delay target in milliseconds (nil for files).
        public var latencyTargetMs: Double?
        /// Live: the least audio (ms) queued ahead of the device at the arrivals of the last second,
        /// when the player stopped (the standing part of the sound's delay; nil for files).
        public var audioLowWaterMs: Double?
        /// How far ahead of the clock (ms) frames were picked when the player stopped: the time an
        /// upload and present take, smoothed.
        public var displayLeadMs = 0.0
        /// Latency from the frame's wall-clock code to the moment it was shown (with `--measure-latency`).
        public var shownLatencyMs: PlaybackReport.Latency?

        /// Creates an empty report.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case reconnects, clock
            case framesShown = "frames_shown"
            case framesDroppedLate = "frames_dropped_late"
            case framesDroppedCatchUp = "frames_dropped_catch_up"
            case audioDroppedMs = "audio_dropped_ms"
            case audioShortenedMs = "audio_shortened_ms"
            case sizeChanges = "size_changes"
            case audioDevice = "audio_device"
            case latencyTargetMs = "latency_target_ms"
            case shownLatencyMs = "shown_latency_ms"
            case audioLowWaterMs = "audio_low_water_ms"
            case displayLeadMs = "display_lead_ms"
        }
    }
}

/// `PlaybackReport.Display` by its short name, inside the package.
package typealias DisplayReport = PlaybackReport.Display
#endif
