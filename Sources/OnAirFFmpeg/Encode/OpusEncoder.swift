#if os(Linux)
import CFFmpeg
import OnAirCore

/// Encodes `PCMBuffer`s to Opus packets with libopus (through libavcodec): 48 kHz, 20 ms frames,
/// mono or stereo — what WebRTC peers expect (RFC 7587).
///
/// Input in any format, rate and chunk size is converted and regrouped as `AACEncoder` does, with the
/// same timestamp keeping (`AudioTimingCorrection`); packets are stamped at 48 kHz, the first one
/// `primingSamples` (libopus's pre-skip, 312) early. Calls block: use one encoder from one dedicated thread.
package final class OpusEncoder {
    /// The bit rates libopus accepts, in bits per second.
    package static let bitRates = 6_000...510_000
    /// The sample rate of every Opus stream OnAir makes (RTP's Opus clock rate).
    package static let sampleRate = 48_000
    /// Samples per frame: 20 ms at 48 kHz.
    package static let frameSamples = 960

    private let core: SampledAudioEncoder

    /// The settings the encoder was opened with (always 48 kHz).
    package var settings: AudioEncoderSettings { core.settings }
    /// Samples of encoder delay at the start of the stream (the OpusHead's pre-skip).
    package var primingSamples: Int { core.primingSamples }
    /// The OpusHead identification header, also attached to the first packet.
    package var formatDescription: FormatDescription { core.formatDescription }

    /// Validates `settings` (48 kHz, 1 or 2 channels, 6–510 kbit/s) and opens libopus with 20 ms frames.
    package init(
        settings: AudioEncoderSettings = AudioEncoderSettings(sampleRate: 48_000, channels: 2, bitRate: 96_000),
        timingCorrection: AudioTimingCorrection = AudioTimingCorrection()
    ) throws(EncoderError) {
        try Self.validate(settings)
        let codec = SampledAudioEncoder.Codec(
            id: AV_CODEC_ID_OPUS, mediaCodec: .opus, displayName: "Opus", defaultFrameSize: Self.frameSamples,
            configure: { (c) throws(EncoderError) in
                guard let options = c.pointee.priv_data else { return }
                try checkEncoder(av_opt_set(options, "frame_duration", "20", 0), "av_opt_set(libopus, frame_duration=20)")
            },
            describe: { .opus(header: $0) },
            preferredSampleFormats: [AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_S16])
        core = try SampledAudioEncoder(
            codec: codec, settings: settings, encoderName: "libopus",
            timingCorrection: timingCorrection)
    }

    /// Adds `buffer` and returns the Opus packets (one per 20 ms) that became ready.
    package func encode(_ buffer: PCMBuffer) throws(EncoderError) -> [EncodedPacket] { try core.encode(buffer) }

    /// Encodes the samples still buffered (the last frame padded by libopus) and drains the encoder.
    package func flush() throws(EncoderError) -> [EncodedPacket] { try core.flush() }

    private static func validate(_ settings: AudioEncoderSettings) throws(EncoderError) {
        guard settings.sampleRate == sampleRate else {
            throw .invalidSettings(SettingsError(field: "sampleRate", value: "\(settings.sampleRate)", allowed: "48000 Hz for Opus"))
        }
        guard (1...2).contains(settings.channels) else {
            throw .invalidSettings(SettingsError(field: "channels", value: "\(settings.channels)", allowed: "1 or 2 for Opus"))
        }
        guard bitRates.contains(settings.bitRate) else {
            throw .invalidSettings(
                SettingsError(
                    field: "bitRate", value: "\(settings.bitRate)",
                    allowed: "\(bitRates.lowerBound)…\(bitRates.upperBound) bits/s for Opus"))
        }
    }
}
#endif
