import Foundation
import OnAirCore

/// Generates a deterministic test signal: a continuous quiet tone with a short, louder beep at a
/// higher pitch starting exactly on every whole second (sample k × `sampleRate`, k ≥ 0).
///
/// Output depends only on the sample index, so it is identical however calls are chunked.
///
/// `clockOffsetPPM` imitates a microphone whose sample clock runs fast (positive) or slow
/// (negative) against the capture clock by that many parts per million: it delivers
/// `sampleRate × (1 + ppm/10⁶)` samples per second of capture time while calling them
/// `sampleRate`, and each buffer's `pts` is its true capture time. The beep still starts at every
/// whole second of capture time, so an encoder that counts samples instead of following the
/// timestamps drifts by ppm × 10⁻⁶ × elapsed time.
package struct SyntheticAudio: Sendable {
    /// Samples per second per channel.
    public let sampleRate: Int
    /// Number of channels; every channel carries the same signal.
    public let channels: Int
    /// How far the sample clock runs off the capture clock, in parts per million.
    public let clockOffsetPPM: Double

    /// The continuous tone's frequency in hertz.
    public static let toneFrequency = 440
    /// The continuous tone's peak amplitude (about −26 dBFS).
    public static let toneAmplitude = 0.05
    /// The beep's frequency in hertz.
    public static let beepFrequency = 3000
    /// The beep's peak amplitude (about −6 dBFS).
    public static let beepAmplitude = 0.5
    /// The beep's length in milliseconds; a whole number of beep periods, so it ends at a zero crossing.
    public static let beepMilliseconds = 60

    /// Allowed sample rates.
    public static let sampleRateRange = 8000...192_000
    /// Allowed channel counts.
    public static let channelRange = 1...64
    /// Allowed clock offsets in parts per million (±5 %).
    public static let clockOffsetRange = -50_000.0...50_000.0

    /// Creates a generator; rejects rates outside `sampleRateRange` and channel counts outside `channelRange`.
    public init(sampleRate: Int, channels: Int, clockOffsetPPM: Double = 0) throws(SettingsError) {
        guard Self.sampleRateRange.contains(sampleRate) else {
            throw SettingsError(field: "sampleRate", value: "\(sampleRate)", allowed: "8000…192000")
        }
        guard Self.channelRange.contains(channels) else {
            throw SettingsError(field: "channels", value: "\(channels)", allowed: "1…64")
        }
        guard Self.clockOffsetRange.contains(clockOffsetPPM) else {
            throw SettingsError(field: "clockOffsetPPM", value: "\(clockOffsetPPM)", allowed: "-50000…50000")
        }
        self.sampleRate = sampleRate
        self.channels = channels
        self.clockOffsetPPM = clockOffsetPPM
    }

    /// Samples actually delivered per second of capture time: `sampleRate × (1 + ppm/10⁶)`.
    public var deliveredRate: Double { Double(sampleRate) * (1 + clockOffsetPPM / 1_000_000) }

    /// The capture time of sample `index`, in units of 1/`sampleRate` (exact without a clock offset).
    func captureTime(ofSample index: Int64) -> MediaTime {
        guard clockOffsetPPM != 0 else { return MediaTime(value: index, timescale: Int32(sampleRate)) }
        return MediaTime(
            value: Int64((Double(index) / (1 + clockOffsetPPM / 1_000_000)).rounded()),
            timescale: Int32(sampleRate))
    }

    /// The number of samples a beep lasts.
    public var beepSampleCount: Int { sampleRate * Self.beepMilliseconds / 1000 }

    /// `count` samples per channel starting at `sampleIndex`, as interleaved f32 with
    /// pts = the capture time of `sampleIndex` (`sampleIndex` / `sampleRate` without a clock offset).
    /// A negative `count` gives an empty buffer.
    public func samples(startingAt sampleIndex: Int64, count: Int) -> PCMBuffer {
        let frames = max(0, count)
        let channels = self.channels
        let bytes = [UInt8](unsafeUninitializedCapacity: frames * channels * 4) { buffer, initialized in
            for frame in 0..<frames {
                let bits = Float(sample(at: sampleIndex &+ Int64(frame))).bitPattern.littleEndian
                let base = frame * channels * 4
                for channel in 0..<channels {
                    let offset = base + channel * 4
                    buffer[offset] = UInt8(truncatingIfNeeded: bits)
                    buffer[offset + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    buffer[offset + 2] = UInt8(truncatingIfNeeded: bits >> 16)
                    buffer[offset + 3] = UInt8(truncatingIfNeeded: bits >> 24)
                }
            }
            initialized = frames * channels * 4
        }
        return PCMBuffer(
            sampleFormat: .f32, isPlanar: false, sampleRate: sampleRate, channels: channels,
            frameCount: frames, planes: [bytes],
            pts: captureTime(ofSample: sampleIndex))
    }

    /// The signal at sample `index`: tone plus, within a beep, the beep (both start at phase 0).
    func sample(at index: Int64) -> Double {
        if clockOffsetPPM != 0 {
            // Capture time of this sample; the signal is a function of capture time.
            let time = Double(index) / deliveredRate
            let second = time.rounded(.down)
            let position = time - second
            var value = Self.toneAmplitude * sin(2 * .pi * Double(Self.toneFrequency) * position)
            if second >= 0, position < Double(Self.beepMilliseconds) / 1000 {
                value += Self.beepAmplitude * sin(2 * .pi * Double(Self.beepFrequency) * position)
            }
            return value
        }
        let rate = Int64(sampleRate)
        // Position within the current second, in 0..<rate, so phases stay exact for any index.
        let inSecond = ((index % rate) + rate) % rate
        let second = (index - inSecond) / rate
        let position = Double(inSecond) / Double(rate)
        var value = Self.toneAmplitude * sin(2 * .pi * Double(Self.toneFrequency) * position)
        if second >= 0, inSecond < Int64(beepSampleCount) {
            value += Self.beepAmplitude * sin(2 * .pi * Double(Self.beepFrequency) * position)
        }
        return value
    }
}
