import Foundation
import OnAirCore

extension LiveSession {
    /// How the session runs.
    public struct Configuration: Sendable {
        /// Video encoder settings, or nil for no video.
        public var video: VideoEncoderSettings?
        /// Audio encoder settings, or nil for no audio.
        public var audio: AudioEncoderSettings?
        /// Drop late video frames (real time) or make the source wait (as fast as possible).
        public var dropLateVideo = true
        /// Frames that may wait for the video encoder before the oldest is dropped.
        public var videoQueueCapacity = 4
        /// Audio buffers that may wait for the audio encoder (the source waits beyond this).
        public var audioQueueCapacity = 512
        /// Packets that may wait for each sink.
        public var sinkQueueCapacity = 4096
        /// Seconds of media that may wait for a network output before it skips to a fresh
        /// keyframe, dropping the rest (the viewer sees a jump, the delay stays bounded); nil: no
        /// bound (nothing skipped, the delay grows while the link is too slow). Files are never cut.
        public var maximumNetworkBacklog: Double? = 2
        /// Stop capturing at this much media time (seconds), or run until `stop()`.
        public var duration: Double?
        /// Media time at the start, in seconds (a diagnostic: `--timeline-start`; default 0).
        public var timelineStart = 0.0
        /// Adapt the video bitrate to what the network outputs carry, or nil for a fixed bitrate.
        public var adaptiveBitRate: AdaptiveBitrateSettings?
        /// Force a keyframe when the sound starts after the first one (`StartingKeyFrame`): outputs
        /// that start once every stream has described itself then start at once, not a GOP later.
        /// Files wait for the sound without it; a served stream's viewers would wait a GOP.
        public var keyFrameWhenSoundStarts = false

        /// The settings the video encoder opens with: `video`, or with adaptive bitrate `video` at
        /// the highest adaptive rate (data-rate limits scaled with it), so the encoder's level
        /// allows every rate the controller may choose. The session then sets `video`'s own rate
        /// before the first frame. Open the video encoder with these (`EncoderFactory` does).
        public var openingVideo: VideoEncoderSettings? {
            guard let video, let adaptiveBitRate, adaptiveBitRate.maximumBitRate > video.averageBitRate else { return video }
            return video.withAverageBitRate(adaptiveBitRate.maximumBitRate)
        }

        /// Creates a configuration.
        public init(video: VideoEncoderSettings?, audio: AudioEncoderSettings?) {
            self.video = video
            self.audio = audio
        }
    }
}
