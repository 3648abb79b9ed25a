import OnAir

/// Turns `--video`/`--audio` source names into capture sources and the encoder settings that go with them.
enum CaptureSourceFactory {
    /// The source kinds, for help texts.
    static let sourcesHelp = "Sources (SRC): synthetic (moving pattern with frame codes, tone with a beep each second), none"

    /// What a record or stream command will run.
    struct Plan {
        var sources: [any CaptureSource]
        var video: VideoEncoderSettings?
        var audio: AudioEncoderSettings?
    }

    static func plan(video videoSpec: String, audio audioSpec: String, encoding: EncodingOptions,
                     fast: Bool, duration: Double?) throws -> Plan {
        let wantsVideo = videoSpec != "none" && encoding.videoEnabled
        let wantsAudio = audioSpec != "none" && encoding.audioEnabled
        for spec in [videoSpec, audioSpec] where spec != "none" && spec != "synthetic" {
            throw UsageError("unknown source '\(spec)'; use synthetic or none")
        }
        var sources: [any CaptureSource] = []
        let syntheticVideo = wantsVideo && videoSpec == "synthetic"
        let syntheticAudio = wantsAudio && audioSpec == "synthetic"
        if syntheticVideo || syntheticAudio {
            sources.append(try SyntheticSource(
                video: syntheticVideo ? (encoding.video.width, encoding.video.height, encoding.video.expectedFrameRate) : nil,
                audio: syntheticAudio ? (encoding.audio.sampleRate, encoding.audio.channels) : nil,
                fast: fast, duration: duration))
        }
        return Plan(sources: sources, video: wantsVideo ? encoding.video : nil, audio: wantsAudio ? encoding.audio : nil)
    }
}
