#if os(Linux)
import CFFmpeg
import OnAirCore

/// Encodes `PCMBuffer`s to raw AAC-LC frames with libavcodec's native `aac` encoder.
///
/// Accepts s16/s32/f32, interleaved or planar, at any rate and chunk size: input is converted
/// (swresample) and regrouped into 1024-sample frames. Packet timestamps start at the first
/// buffer's `pts` and count samples; every later buffer's `pts` is checked against that count and
/// `timingCorrection` keeps the two together (a hole becomes silence, an overlap is cut, a drifting
/// clock is followed by gentle resampling), so A/V sync survives gaps and drift. The first packet
/// starts `primingSamples` early (encoder delay), so decoded audio minus the priming lines up with the input.
/// Calls block: use one encoder from one dedicated thread or serial queue.
package final class AACEncoder {
    private let core: SampledAudioEncoder

    /// The settings the encoder was opened with.
    package var settings: AudioEncoderSettings { core.settings }
    /// The FFmpeg encoder in use.
    package var encoderName: String { core.encoderName }
    /// Samples of encoder delay at the start of the stream (AAC priming, usually 1024).
    package var primingSamples: Int { core.primingSamples }
    /// The AudioSpecificConfig, also attached to the first packet.
    package var formatDescription: FormatDescription { core.formatDescription }
    /// How the sample count is kept on the input's timestamps.
    package var timingCorrection: AudioTimingCorrection { core.timingCorrection }
    /// Samples of silence inserted for holes so far.
    package var insertedSilenceSamples: Int64 { core.insertedSilenceSamples }
    /// Samples cut for overlaps so far.
    package var droppedSamples: Int64 { core.droppedSamples }
    /// Clock jumps (timestamps restarted) so far.
    package var clockJumps: Int { core.clockJumps }

    /// Validates `settings` and opens the encoder (`aac` unless another AAC encoder is named).
    package init(
        settings: AudioEncoderSettings, encoderName: String = "aac",
        timingCorrection: AudioTimingCorrection = AudioTimingCorrection()
    ) throws(EncoderError) {
        do { try settings.validate() } catch { throw .invalidSettings(error) }
        let codec = SampledAudioEncoder.Codec(
            id: AV_CODEC_ID_AAC, mediaCodec: .aac, displayName: "AAC", defaultFrameSize: 1024,
            configure: { (c) throws(EncoderError) in c.pointee.profile = FF_PROFILE_AAC_LOW },
            describe: { .aac(audioSpecificConfig: $0.isEmpty ? Self.audioSpecificConfig(settings) : $0) })
        core = try SampledAudioEncoder(
            codec: codec, settings: settings, encoderName: encoderName,
            timingCorrection: timingCorrection)
    }

    /// Adds `buffer` and returns the AAC packets that became ready.
    package func encode(_ buffer: PCMBuffer) throws(EncoderError) -> [EncodedPacket] { try core.encode(buffer) }

    /// Encodes the samples still buffered (a short last frame) and drains the encoder.
    package func flush() throws(EncoderError) -> [EncodedPacket] { try core.flush() }

    /// A two-byte AAC-LC AudioSpecificConfig (object type 2, frequency index, channel configuration).
    static func audioSpecificConfig(_ settings: AudioEncoderSettings) -> [UInt8] {
        let rates = [96_000, 88_200, 64_000, 48_000, 44_100, 32_000, 24_000, 22_050, 16_000, 12_000, 11_025, 8_000]
        let index = UInt8(rates.firstIndex(of: settings.sampleRate) ?? 15)
        let configuration = UInt8(settings.channels == 8 ? 7 : settings.channels)
        return [(2 << 3) | (index >> 1), ((index & 1) << 7) | (configuration << 3)]
    }
}
#endif
