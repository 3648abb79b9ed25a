#if os(Linux)
@_spi(Testing) import OnAir

/// The help text for `--video`/`--audio` and the session settings they and the encoder flags make.
enum CaptureSourceFactory {
    /// The source kinds, for help texts.
    static let sourcesHelp = """
        Sources (SRC): synthetic (moving pattern with frame codes, a tone with a beep each second),
          v4l2:/dev/videoN (camera), x11:DISPLAY (screen, e.g. x11::0), alsa:DEVICE, pulse:SOURCE
          (microphones), file:PATH (any file, paced at real time), none. See 'onair devices'.
          --synthetic-audio-ppm N    test signal: the synthetic microphone's sample clock runs N parts
                                     per million fast (negative: slow) against the capture clock, as a
                                     real device's does; the beep stays on each whole second (default 0)
          --timeline-start S         diagnostic: the media time line starts at S seconds (default 0), e.g.
                                     95433 puts the MPEG-TS wrap (2^33 at 90 kHz) 10 s into the run,
                                     47712 RTP's (2^32); see docs/serving.md "Clocks"
        """

    /// The session settings for the capture flags and the encoder flags (no outputs yet).
    static func settings(_ capture: CaptureArguments, encoding: EncodingOptions) throws -> SessionSettings {
        var settings = SessionSettings()
        settings.video = encoding.videoEnabled ? try SourceSpec(parsing: capture.videoSpec) : .none
        settings.audio = encoding.audioEnabled ? try SourceSpec(parsing: capture.audioSpec) : .none
        if settings.video == .none && settings.audio == .none {
            throw UsageError("nothing to capture: both video and audio are off")
        }
        settings.videoEncoder = encoding.video
        settings.audioEncoder = encoding.audio
        settings.duration = capture.duration.map { .seconds($0) }
        settings.syntheticAudioClockOffsetPPM = capture.syntheticAudioPPM
        settings.timelineStart = .seconds(capture.timelineStart)
        return settings
    }
}
#endif
