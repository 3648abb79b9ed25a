import OnAirCore

#if (canImport(VideoToolbox) || ONAIR_APPLE_STUBS) && canImport(OnAirApple)
import OnAirApple
#endif
#if canImport(OnAirFFmpeg)
import OnAirFFmpeg
#endif

/// Creates this platform's encoders: libavcodec (hardware first, then x264) on Linux; VideoToolbox
/// (hardware required where the OS lets us ask) and AudioToolbox on Apple platforms.
package enum EncoderFactory {
    /// An H.264 or H.265 encoder for `settings`, validated first.
    public static func videoEncoder(settings: VideoEncoderSettings) throws -> any VideoEncoding {
        try settings.validate()
        #if (canImport(VideoToolbox) || ONAIR_APPLE_STUBS) && canImport(OnAirApple)
        // The settings' codec picks the session's codec type and packager (not yet built on a Mac).
        return try VideoToolboxH264Encoder(settings: settings)
        #elseif canImport(OnAirFFmpeg)
        return try H264Encoder(settings: settings)
        #else
        throw SettingsError(field: "encoder", value: settings.encoder, allowed: "no H.264 encoder on this platform yet")
        #endif
    }

    /// Both encoders a session needs (nil settings: no encoder), created before any output exists
    /// so that rejected settings leave nothing behind.
    public static func encoders(video: VideoEncoderSettings?, audio: AudioEncoderSettings?) throws
        -> (video: (any VideoEncoding)?, audio: (any AudioEncoding)?)
    {
        (try video.map { try videoEncoder(settings: $0) }, try audio.map { try audioEncoder(settings: $0) })
    }

    /// An AAC encoder for `settings`, validated first.
    public static func audioEncoder(settings: AudioEncoderSettings) throws -> any AudioEncoding {
        try settings.validate()
        #if (canImport(AudioToolbox) || ONAIR_APPLE_STUBS) && canImport(OnAirApple)
        return try AudioToolboxAACEncoder(settings: settings)
        #elseif canImport(OnAirFFmpeg)
        return try AACEncoder(settings: settings)
        #else
        throw SettingsError(field: "sampleRate", value: "\(settings.sampleRate)", allowed: "no AAC encoder on this platform yet")
        #endif
    }
}

#if canImport(OnAirFFmpeg)
extension H264Encoder: VideoEncoding {
    /// Which encoder runs and why (see `EncoderSelection`).
    public var summary: String { selection.description }
}

extension AACEncoder: AudioEncoding {}
#endif
