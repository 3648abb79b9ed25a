import OnAirCore
import OnAirLive

#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif
#if (canImport(AVFoundation) || ONAIR_APPLE_STUBS) && canImport(OnAirApple)
import OnAirApple
#endif

extension SourceSpec {
    /// The capture sources for a `--video` and an `--audio` spec: one per device, one shared
    /// `FileSource` when both name the same file, and `synthetic(mediaTypes)` for synthetic specs
    /// (called once, with both kinds when both are synthetic).
    ///
    /// Video is captured and delivered at `size` and `frameRate`; microphones are asked for
    /// `sampleRate` and `channels` (files deliver their own audio format).
    package static func makeSource(
        video: SourceSpec, audio: SourceSpec,
        size: (width: Int, height: Int), frameRate: Double,
        sampleRate: Int, channels: Int,
        synthetic: (Set<MediaType>) throws -> any CaptureSource
    ) throws -> [any CaptureSource] {
        if video != .none, !video.mediaTypes.contains(.video) {
            throw SourceSpecError.wrongMediaType(text: video.description, wanted: .video)
        }
        if audio != .none, !audio.mediaTypes.contains(.audio) {
            throw SourceSpecError.wrongMediaType(text: audio.description, wanted: .audio)
        }
        var sources: [any CaptureSource] = []
        if video == .synthetic || audio == .synthetic {
            var kinds: Set<MediaType> = []
            if video == .synthetic { kinds.insert(.video) }
            if audio == .synthetic { kinds.insert(.audio) }
            sources.append(try synthetic(kinds))
        }
        if case .file(let path) = video, case .file(let other) = audio, path == other {
            return sources + [try fileSource(path: path, mediaTypes: [.video, .audio], size: size, text: video.description)]
        }
        if let source = try deviceSource(
            video, mediaType: .video, size: size, frameRate: frameRate,
            sampleRate: sampleRate, channels: channels)
        {
            sources.append(source)
        }
        if let source = try deviceSource(
            audio, mediaType: .audio, size: size, frameRate: frameRate,
            sampleRate: sampleRate, channels: channels)
        {
            sources.append(source)
        }
        return sources
    }

    /// The source for one non-synthetic spec delivering `mediaType`, or nil for `synthetic`/`none`.
    private static func deviceSource(
        _ spec: SourceSpec, mediaType: MediaType, size: (width: Int, height: Int),
        frameRate: Double, sampleRate: Int, channels: Int
    ) throws -> (any CaptureSource)? {
        #if canImport(OnAirFFmpeg)
        switch spec {
        case .synthetic, .none:
            return nil
        case .v4l2(let device):
            return DeviceSource.camera(path: device, size: size, frameRate: frameRate)
        case .x11(let display):
            return DeviceSource.screen(display: display, size: size, frameRate: frameRate)
        case .alsa(let device):
            return DeviceSource.microphone(kind: .alsa, device: device, sampleRate: sampleRate, channels: channels)
        case .pulse(let source):
            return DeviceSource.microphone(kind: .pulse, device: source, sampleRate: sampleRate, channels: channels)
        case .file(let path):
            return try fileSource(path: path, mediaTypes: [mediaType], size: size, text: spec.description)
        case .camera, .microphone:
            throw SourceSpecError.unsupportedOnThisPlatform(text: spec.description)
        }
        #elseif (canImport(AVFoundation) || ONAIR_APPLE_STUBS) && canImport(OnAirApple)
        // AVCaptureSession: the camera by position or unique ID at the session's size and rate
        // (CameraSelection picks the format), the microphone in its own format.
        switch spec {
        case .synthetic, .none: return nil
        case .camera(let camera):
            return CameraCaptureSource(spec: camera, width: size.width, height: size.height, frameRate: frameRate)
        case .microphone(let device):
            return MicrophoneCaptureSource(uniqueID: device == "default" ? "" : device)
        default: throw SourceSpecError.unsupportedOnThisPlatform(text: spec.description)
        }
        #else
        switch spec {
        case .synthetic, .none: return nil
        default: throw SourceSpecError.unsupportedOnThisPlatform(text: spec.description)
        }
        #endif
    }

    private static func fileSource(
        path: String, mediaTypes: Set<MediaType>, size: (width: Int, height: Int),
        text: String
    ) throws -> any CaptureSource {
        #if canImport(OnAirFFmpeg)
        return FileSource(path: path, mediaTypes: mediaTypes, outputSize: mediaTypes.contains(.video) ? size : nil)
        #else
        throw SourceSpecError.unsupportedOnThisPlatform(text: text)
        #endif
    }
}
