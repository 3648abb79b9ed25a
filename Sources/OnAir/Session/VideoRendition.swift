import OnAirLive

/// A further video encode of the session's capture, beside the main one: an IP camera's sub
/// stream (a small picture at a low frame rate for motion detection, while the main stream is
/// recorded). The same captured frames feed it, taken at `frameRate` and scaled once each by its own
/// encoder, with its own keyframes; it carries the session's audio packets (the same AAC).
///
/// When the session serves (`SessionSettings.serving`), it is served under `name` as the main
/// encode is under `live`: `/sub.ts`, `/sub.mp4`, `/sub.m3u8`, `/sub/snapshot.jpg`, `rtsp://…/sub`.
/// `outputs` are files written from it (by extension, as `SessionSettings.outputs`).
public struct VideoRendition: Sendable, Hashable {
    /// The path prefix of its streams: lowercase letters, digits and `-`, not `live` (the main
    /// encode's).
    public var name: String
    /// Picture width in pixels (even).
    public var width: Int
    /// Picture height in pixels (even).
    public var height: Int
    /// Frames per second taken from the capture (every frame when the capture is slower).
    public var frameRate: Double
    /// Bits per second, or nil for the main encode's scaled by the pixels per second (at least 300 kb/s).
    public var bitRate: Int?
    /// Files written from this encode (`.mp4`, `.ts`, …; no network outputs).
    public var outputs: [String]
    /// The codec, or nil for the main encode's: main H.265 to record, a sub H.264 for browsers and
    /// WebRTC is the usual camera.
    public var codec: MediaCodec?

    /// A rendition `name` of `width`×`height` at `frameRate`.
    public init(name: String = "sub", width: Int, height: Int, frameRate: Double, bitRate: Int? = nil, outputs: [String] = []) {
        self.name = name
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.bitRate = bitRate
        self.outputs = outputs
    }

    /// The encoder settings of this rendition: `main`'s (profile, preset, keyframe spacing in time,
    /// no B-frames when main has none) at this size, rate and bitrate, at the level that fits.
    public func encoderSettings(main: VideoEncoderSettings) -> VideoEncoderSettings {
        var settings = main
        settings.width = width
        settings.height = height
        settings.expectedFrameRate = frameRate
        let scale = Double(width * height) * frameRate / max(1, Double(main.width * main.height) * main.expectedFrameRate)
        let rate = bitRate ?? min(main.averageBitRate, max(300_000, Int(Double(main.averageBitRate) * scale)))
        settings.averageBitRate = rate
        settings.dataRateLimits = [.relative(to: rate)]
        settings.profileLevel.level = nil
        if let codec { settings.codec = codec }
        return settings
    }

    /// The video codec a name means ("h264", "h265", "hevc", "avc"), nil for other names.
    public static func videoCodec(named name: String) -> MediaCodec? {
        switch name.lowercased() {
        case "h264", "avc", "h.264": return .h264
        case "h265", "hevc", "h.265": return .h265
        default: return nil
        }
    }

    /// Checks the name, size and rate (and the outputs' kinds); throws `SettingsError` naming the field.
    func validate(main: VideoEncoderSettings) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard !name.isEmpty, name.count <= 32, name.allSatisfy(allowed.contains), name != "live" else {
            throw SettingsError(field: "renditions.name", value: name, allowed: "1–32 of a-z, 0-9 and -, not live")
        }
        try encoderSettings(main: main).validate()
        for output in outputs where try OutputRegistry.kind(for: output).role == .network {
            throw SettingsError(field: "renditions.outputs", value: output, allowed: "files (no network outputs)")
        }
    }
}
