#if os(Linux)
import OnAirCore

/// One ONVIF media profile: a stream the server serves (the main one, `live`, or a further
/// encode such as `sub`) with the true figures of its encode, as GetProfiles reports them.
package struct ONVIFProfile: Sendable, Equatable {
    /// The AAC encode a profile carries.
    package struct Audio: Sendable, Equatable {
        /// Samples per second.
        package var sampleRate: Int
        /// Channels.
        package var channels: Int
        /// Bits per second.
        package var bitRate: Int
    }

    /// The profile token (`main`, `sub`).
    package var token: String
    /// The served path (`live`, `sub`): `rtsp://…/live`, `/sub/snapshot.jpg`.
    package var path: String
    /// Picture width.
    package var width: Int
    /// Picture height.
    package var height: Int
    /// Frames per second.
    package var frameRate: Double
    /// Bits per second.
    package var bitRate: Int
    /// Frames from one keyframe to the next.
    package var keyFrameInterval: Int
    /// The H.264 profile (unused for H.265, whose profile is Main).
    package var profile: H264Profile
    /// The video codec: H.264, or H.265 (which media ver10 cannot describe: media2 lists it).
    package var codec: MediaCodec
    /// The capture's size (the video source's resolution).
    package var sourceWidth: Int
    /// The capture's height.
    package var sourceHeight: Int
    /// The AAC encode, nil without audio.
    package var audio: Audio?

    /// The profile of a stream encoded with `video` (and `audio`) from a capture of `source` size.
    package init(
        token: String, path: String, video: VideoEncoderSettings, audio: AudioEncoderSettings?, sourceWidth: Int, sourceHeight: Int
    ) {
        self.token = token
        self.path = path
        width = video.width
        height = video.height
        frameRate = video.expectedFrameRate
        bitRate = video.averageBitRate
        keyFrameInterval = video.effectiveKeyFrameInterval
        profile = video.profileLevel.profile
        codec = video.codec
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.audio = audio.map { Audio(sampleRate: $0.sampleRate, channels: $0.channels, bitRate: $0.bitRate) }
    }

    /// Media2's name of the encoding (`H264`, `H265`).
    package var encodingName: String { codec == .h265 ? "H265" : "H264" }

    /// ONVIF's name of the profile (`Baseline`, `Main`, `High`; `Main` for H.265).
    package var profileName: String {
        if codec == .h265 { return "Main" }
        return switch profile {
        case .baseline: "Baseline"
        case .main: "Main"
        case .high: "High"
        }
    }
}
#endif
