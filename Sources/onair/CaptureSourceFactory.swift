import OnAir

/// Turns `--video`/`--audio` source names into capture sources and the encoder settings that go with them.
enum CaptureSourceFactory {
    /// The source kinds, for help texts.
    static let sourcesHelp = """
    Sources (SRC): synthetic (moving pattern with frame codes, a tone with a beep each second),
      v4l2:/dev/videoN (camera), x11:DISPLAY (screen, e.g. x11::0), alsa:DEVICE, pulse:SOURCE
      (microphones), file:PATH (any file, paced at real time), none. See 'onair devices'.
      --synthetic-audio-ppm N    test signal: the synthetic microphone's sample clock runs N parts
                                 per million fast (negative: slow) against the capture clock, as a
                                 real device's does; the beep stays on each whole second (default 0)
    """

    /// What a record or stream command will run.
    struct Plan {
        var sources: [any CaptureSource]
        var video: VideoEncoderSettings?
        var audio: AudioEncoderSettings?
    }

    static func plan(video videoText: String, audio audioText: String, encoding: EncodingOptions,
                     fast: Bool, duration: Double?, syntheticAudioPPM: Double = 0) throws -> Plan {
        let video = encoding.videoEnabled ? try SourceSpec(parsing: videoText) : .none
        let audio = encoding.audioEnabled ? try SourceSpec(parsing: audioText) : .none
        if video == .none && audio == .none { throw UsageError("nothing to capture: both video and audio are off") }
        let sources = try SourceSpec.makeSource(
            video: video, audio: audio,
            size: (encoding.video.width, encoding.video.height), frameRate: encoding.video.expectedFrameRate,
            sampleRate: encoding.audio.sampleRate, channels: encoding.audio.channels,
            synthetic: { kinds in
                try SyntheticSource(
                    video: kinds.contains(.video) ? (encoding.video.width, encoding.video.height, encoding.video.expectedFrameRate) : nil,
                    audio: kinds.contains(.audio) ? (encoding.audio.sampleRate, encoding.audio.channels) : nil,
                    fast: fast, duration: duration, audioClockOffsetPPM: syntheticAudioPPM)
            })
        return Plan(sources: sources, video: video != .none ? encoding.video : nil, audio: audio != .none ? encoding.audio : nil)
    }
}
