#if os(Linux)
import Foundation
import OnAir

/// The encoder flags shared by `onair encode`, `record` and `stream`.
struct EncodingOptions {
    static let help = """
        Video:
          --size WxH                   output size (default: the input's, or 1280x720)
          --fps N                      frame rate (default: the input's, or 30)
          --bitrate RATE               average bitrate, e.g. 2M, 800k (default 2.5M)
          --data-rate-limit B:S        at most B bytes in any S seconds (repeatable; default 1.5 × bitrate over 1 s)
          --keyint N                   at most N frames between keyframes (default 60)
          --keyint-duration S          at most S seconds between keyframes (default 2; 0 = no limit)
          --codec h264|h265            video codec (default h264; h265 is HEVC Main, libx265 or a hardware encoder)
          --profile baseline|main|high (default high); with --codec h265: main (main10 is refused)
          --level 3.1|auto             H.264 level (default auto: the smallest that fits; H.265: always auto)
          --bframes, --no-bframes      allow frame reordering (default off)
          --realtime, --no-realtime    real-time encoding, no frame delay (default on, except for encode)
          --force-keyframe-at T1,T2    force IDR frames at these times (seconds)
          --encoder NAME|auto          FFmpeg encoder name, or auto (hardware first, then libx264 or libx265)
          --preset NAME                x264 speed/quality preset (default veryfast)
          --no-video                   no video stream
        Audio:
          --audio-rate HZ              sample rate (default: the input's, or 48000)
          --audio-channels N           channel count, 1–6 or 8 (default: the input's, or 2)
          --audio-bitrate RATE         e.g. 128k (default 128k)
          --no-audio                   no audio stream
        """

    var video: VideoEncoderSettings
    var audio: AudioEncoderSettings
    var videoEnabled = true
    var audioEnabled = true
    var forceKeyFrameTimes: [Double] = []
    /// Which of size, rate, channels were given explicitly (the rest may follow the input).
    var explicitSize = false, explicitFrameRate = false, explicitAudioRate = false, explicitChannels = false

    /// Parses the encoder flags; `realTimeDefault` differs per command.
    init(arguments: inout ArgumentList, realTimeDefault: Bool) throws {
        video = VideoEncoderSettings(realTime: realTimeDefault)
        audio = AudioEncoderSettings()
        if let size = try arguments.option("--size") {
            let parts = size.lowercased().split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw UsageError("--size takes WIDTHxHEIGHT, e.g. 1280x720 (got '\(size)')")
            }
            video.width = w
            video.height = h
            explicitSize = true
        }
        if let fps = try arguments.option("--fps") {
            video.expectedFrameRate = try Self.number(fps, "--fps")
            explicitFrameRate = true
        }
        let bitrate = try arguments.option("--bitrate")
        if let bitrate { video.averageBitRate = try Self.rate(bitrate, "--bitrate") }
        let limits = try arguments.options("--data-rate-limit")
        if limits.isEmpty {
            video.dataRateLimits = [.relative(to: video.averageBitRate)]
        } else {
            video.dataRateLimits = try limits.map { text in
                let parts = text.split(separator: ":")
                guard parts.count == 2, let bytes = Int(parts[0]), let seconds = Double(parts[1]) else {
                    throw UsageError("--data-rate-limit takes BYTES:SECONDS, e.g. 375000:1 (got '\(text)')")
                }
                return VideoEncoderSettings.DataRateLimit(bytes: bytes, seconds: seconds)
            }
        }
        if let keyint = try arguments.option("--keyint") {
            guard let value = Int(keyint) else { throw UsageError("--keyint takes a whole number of frames") }
            video.maxKeyFrameInterval = value
        }
        if let duration = try arguments.option("--keyint-duration") {
            video.maxKeyFrameIntervalDuration = try Self.number(duration, "--keyint-duration")
        }
        if let codec = try arguments.option("--codec") {
            guard let parsed = VideoRendition.videoCodec(named: codec) else {
                throw UsageError("--codec takes h264 or h265 (got '\(codec)')")
            }
            video.codec = parsed
        }
        if video.codec == .h265, let profile = try arguments.option("--profile") {
            guard let parsed = HEVCProfileLevel(name: profile) else {
                throw UsageError("--profile with --codec h265 takes main (got '\(profile)')")
            }
            video.hevcProfileLevel = parsed
        }
        if let profile = try arguments.option("--profile") {
            guard let parsed = H264ProfileLevel.Profile(rawValue: profile.lowercased()) else {
                throw UsageError("--profile takes baseline, main or high (got '\(profile)')")
            }
            video.profileLevel.profile = parsed
        }
        if let level = try arguments.option("--level"), level != "auto" {
            guard let value = Double(level), let parsed = H264ProfileLevel.Level(rawValue: Int((value * 10).rounded())) else {
                throw UsageError("--level takes an H.264 level such as 3.0, 3.1, 4.0, 4.1 or auto (got '\(level)')")
            }
            video.profileLevel.level = parsed
        }
        if arguments.flag("--bframes") { video.allowFrameReordering = true }
        if arguments.flag("--no-bframes") { video.allowFrameReordering = false }
        if arguments.flag("--realtime") { video.realTime = true }
        if arguments.flag("--no-realtime") { video.realTime = false }
        if let times = try arguments.option("--force-keyframe-at") {
            forceKeyFrameTimes = try times.split(separator: ",").map { try Self.number(String($0), "--force-keyframe-at") }.sorted()
        }
        if let encoder = try arguments.option("--encoder") { video.encoder = encoder }
        if let preset = try arguments.option("--preset") { video.preset = preset }
        if let rate = try arguments.option("--audio-rate") {
            guard let value = Int(rate) else { throw UsageError("--audio-rate takes a sample rate in Hz") }
            audio.sampleRate = value
            explicitAudioRate = true
        }
        if let channels = try arguments.option("--audio-channels") {
            guard let value = Int(channels) else { throw UsageError("--audio-channels takes a channel count") }
            audio.channels = value
            explicitChannels = true
        }
        if let rate = try arguments.option("--audio-bitrate") { audio.bitRate = try Self.rate(rate, "--audio-bitrate") }
        if arguments.flag("--no-video") { videoEnabled = false }
        if arguments.flag("--no-audio") { audioEnabled = false }
        guard videoEnabled || audioEnabled else { throw UsageError("--no-video and --no-audio leave nothing to encode") }
    }

    /// "2M", "800k", "128000" → bits per second.
    static func rate(_ text: String, _ flag: String) throws -> Int {
        let lower = text.lowercased()
        var multiplier = 1.0
        var digits = Substring(lower)
        if lower.hasSuffix("k") { multiplier = 1_000; digits = digits.dropLast() }
        if lower.hasSuffix("m") { multiplier = 1_000_000; digits = digits.dropLast() }
        guard let value = Double(digits), value.isFinite else {
            throw UsageError("\(flag) takes a rate such as 2M, 800k or 128000 (got '\(text)')")
        }
        return Int((value * multiplier).rounded())
    }

    static func number(_ text: String, _ flag: String) throws -> Double {
        guard let value = Double(text), value.isFinite else { throw UsageError("\(flag) takes a number (got '\(text)')") }
        return value
    }
}
#endif
