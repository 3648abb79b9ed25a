import OnAirLive

#if canImport(OnAirStreaming)
import OnAirStreaming
#endif

/// Everything a live session is made of, as plain values: what to capture, how to encode,
/// where the packets go and how long to run. `SessionBuilder` turns it into a running `Session`.
public struct SessionSettings: Sendable {
    /// The video source (`.none`, the default: no video; the test pattern only by name,
    /// `.synthetic`). Ignored when the builder is given the app's own sources.
    public var video: SourceSpec = .none
    /// The audio source (`.none`, the default: no audio; the test tone only by name,
    /// `.synthetic`). Ignored when the builder is given the app's own sources.
    public var audio: SourceSpec = .none
    /// H.264 settings (keyframe spacing is tightened where an output needs it).
    public var videoEncoder = VideoEncoderSettings(realTime: true)
    /// AAC settings.
    public var audioEncoder = AudioEncoderSettings()
    /// Outputs by path or URL: files by extension (`.mp4`, `.ts`, `.h264`, `….m3u8`, …),
    /// network destinations by scheme (`rtmp://`, `srt://`, …); see `OutputRegistry`.
    public var outputs: [String] = []
    /// Further video encodes of the same capture (a sub stream), each with its own size, frame
    /// rate, bitrate, keyframes and outputs; served under its name when the session serves.
    public var renditions: [VideoRendition] = []
    /// How files are written (MP4 layout, HLS segmenting).
    public var fileOptions = OutputOptions()
    /// How network outputs reconnect, adapt and bound their backlog.
    public var streaming = StreamingSettings()
    #if canImport(OnAirServing)
    /// Serve viewers from this session (HTTP, SRT, RTSP, WebRTC), or nil (the Serving trait).
    public var serving: ServingSettings?
    #endif
    /// A segmented recording (segments cut at keyframes, retention, sync to disk), or nil.
    public var recording: RecordingSettings?
    /// Motion detection on the captured video (`onair serve --motion`), or nil: changes come as
    /// `SessionEvent.motion`, run `MotionSettings.onMotion` and, when serving, feed `/metrics`
    /// and the ONVIF events service.
    public var motion: MotionSettings?
    /// Serve the first HLS output's directory over HTTP on 127.0.0.1 at this port (0: one the system
    /// picks, named by `Session.hlsServerURL`), or nil.
    public var hlsServePort: Int?
    /// Stop after this much media, or run until stopped.
    public var duration: Duration?
    /// Where the media time line starts (default zero): a diagnostic that puts the MPEG-TS
    /// timestamps' wrap (2^33 at 90 kHz, about 26.5 h) or RTP's (2^32, about 13.25 h) a few seconds
    /// into a run (docs/serving.md, "Clocks"). From 0 to 10^7 seconds.
    public var timelineStart: Duration = .zero
    /// The session's anchored time line (nil: the system's clocks); tests inject one to step the
    /// wall clock or set the kernel's synchronization state.
    package var clock: AnchoredClock?
    /// The synthetic source as fast as the encoders go (media time; needs `duration`): nothing
    /// is dropped and the encoder makes the source wait. For tests and tools (`@_spi(Testing)`).
    @_spi(Testing) public var asFastAsPossible = false
    /// A test signal: the synthetic microphone's sample clock runs this many ppm fast. For tests
    /// and tools (`@_spi(Testing)`).
    @_spi(Testing) public var syntheticAudioClockOffsetPPM = 0.0

    /// Nothing to capture or write yet: name the sources (`validate()` refuses none) and outputs.
    public init() {}

    /// The video settings the encoder opens with: `videoEncoder` with a keyframe at least as often
    /// as the outputs need (an HLS segment starts on one) and, when serving, no B-frames (browsers'
    /// fragmented MP4, low delay for every viewer).
    public var effectiveVideoEncoder: VideoEncoderSettings {
        var video = SinkFactory.videoSettings(videoEncoder, for: outputs, options: fileOptions)
        #if canImport(OnAirServing)
        if let serving {
            video = video.withKeyFrames(atLeastEvery: serving.hlsSegmentDuration.inSeconds)
            video.allowFrameReordering = false
        }
        #endif
        if let recording { video = video.withKeyFrames(atLeastEvery: recording.segmentDuration.inSeconds) }
        #if canImport(OnAirStreaming)
        if outputs.contains(where: WHIPEndpoint.accepts) {
            // Every WebRTC receiver decodes Constrained Baseline (profile-level-id 42e01f); one encode serves all outputs.
            video.profileLevel.profile = .baseline
            video.allowFrameReordering = false
        }
        #endif
        return video
    }

    /// Checks what can be checked before anything opens; throws a typed error naming the field.
    public func validate() throws {
        if video == .none && audio == .none {
            throw SettingsError(
                field: "video, audio", value: "none",
                allowed: "at least one source: .v4l2, .x11, .pulse, .alsa, .file, or the test pattern by name, .synthetic")
        }
        if outputs.isEmpty && !isServing && recording == nil {
            throw SettingsError(field: "outputs", value: "[]", allowed: "at least one output, or serving")
        }
        if let duration, duration <= .zero { throw SettingsError(field: "duration", value: "\(duration)", allowed: "positive") }
        try motion?.validate()
        if timelineStart < .zero || timelineStart > .seconds(10_000_000) {
            throw SettingsError(field: "timelineStart", value: "\(timelineStart)", allowed: "0 to 10,000,000 seconds")
        }
        if asFastAsPossible {
            guard (video == .synthetic || video == .none) && (audio == .synthetic || audio == .none) else {
                throw SettingsError(field: "asFastAsPossible", value: "true", allowed: "with the synthetic source only")
            }
            guard duration != nil else { throw SettingsError(field: "asFastAsPossible", value: "true", allowed: "with a duration") }
        }
        for output in outputs {
            let kind = try OutputRegistry.kind(for: output)
            // WebRTC publishing carries H.264 (what browsers decode); an H.265 encode cannot go there.
            if kind.name == "whip" && videoEncoder.codec == .h265 && video != .none {
                throw SettingsError(
                    field: "outputs", value: output,
                    allowed: "H.264 for WHIP (WebRTC publishing): --codec h264, or SRT, RTSP or UDP for H.265")
            }
        }
        if hlsServePort != nil && !outputs.contains(where: { OutputRegistry.hlsPlaylist(for: $0) != nil }) {
            throw SettingsError(field: "hlsServePort", value: "\(hlsServePort!)", allowed: "with an HLS output")
        }
        #if !canImport(OnAirHTTP)
        if let hlsServePort {
            throw SettingsError(field: "hlsServePort", value: "\(hlsServePort)", allowed: "nil without the Serving trait")
        }
        #endif
        try streaming.validate()
        try recording?.validate()
        for rendition in renditions { try rendition.validate(main: effectiveVideoEncoder) }
        if Set(renditions.map(\.name)).count != renditions.count {
            throw SettingsError(field: "renditions.name", value: renditions.map(\.name).joined(separator: ", "), allowed: "each name once")
        }
    }

    /// Whether the session serves viewers itself.
    var isServing: Bool {
        #if canImport(OnAirServing)
        serving != nil
        #else
        false
        #endif
    }
}
