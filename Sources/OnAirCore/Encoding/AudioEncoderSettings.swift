/// How to encode AAC-LC.
public struct AudioEncoderSettings: Sendable, Hashable, Codable {
    /// The sampling rates AAC can signal with a frequency index (ISO 14496-3 Table 1.18).
    public static let sampleRates = [
        8_000, 11_025, 12_000, 16_000, 22_050, 24_000,
        32_000, 44_100, 48_000, 64_000, 88_200, 96_000,
    ]
    /// The channel counts with a standard AAC channel configuration (7 has none).
    public static let channelCounts = [1, 2, 3, 4, 5, 6, 8]

    /// Output sample rate in Hz; input at other rates is resampled.
    public var sampleRate: Int
    /// Output channel count; input with other counts is remixed.
    public var channels: Int
    /// Target bit rate in bits per second.
    public var bitRate: Int

    /// Creates settings; defaults are 48 kHz stereo at 128 kbit/s.
    public init(sampleRate: Int = 48_000, channels: Int = 2, bitRate: Int = 128_000) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
    }

    /// The largest bit rate AAC allows: 6144 bits per channel per 1024-sample frame.
    public var maxBitRate: Int { 6_144 * channels * sampleRate / 1_024 }

    /// Checks every field; throws the first problem, naming the field and the allowed range.
    public func validate() throws(SettingsError) {
        guard Self.sampleRates.contains(sampleRate) else {
            throw SettingsError(
                field: "sampleRate", value: "\(sampleRate)",
                allowed: Self.sampleRates.map(String.init).joined(separator: ", ") + " Hz")
        }
        guard Self.channelCounts.contains(channels) else {
            throw SettingsError(field: "channels", value: "\(channels)", allowed: "1…6 or 8")
        }
        guard bitRate > 0, bitRate <= maxBitRate else {
            throw SettingsError(
                field: "bitRate", value: "\(bitRate)",
                allowed: "1…\(maxBitRate) bits/s for \(channels) channel(s) at \(sampleRate) Hz")
        }
    }
}
