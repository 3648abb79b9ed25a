#if os(Linux)
import Foundation
import OnAirCore
import OnAirLive

/// Finds the onsets of the synthetic source's beeps in PCM audio, to the sample.
///
/// A Goertzel filter at the beep frequency over 5 ms blocks (hop 2.5 ms) finds where the beep's
/// band amplitude first reaches `minimumAmplitude`; the onset is then refined to the first sample
/// whose magnitude reaches half the beep's peak, searching from one block before. Because the beep
/// starts at phase 0 the refined onset lies at most about two samples after the true start
/// (0.04 ms at 48 kHz). Onsets closer than `minimumSpacing` to the previous one are ignored, and
/// so is a beep already sounding in the first block (its onset lies before the audio).
package struct BeepDetector: Sendable {
    /// The beep frequency in hertz.
    public var frequency: Double
    /// The band amplitude (0…1 full scale) a block must reach to count as a beep.
    public var minimumAmplitude: Double
    /// The least time between two onsets, in seconds.
    public var minimumSpacing: Double

    /// Creates a detector for beeps at `frequency` hertz reaching `minimumAmplitude`.
    public init(
        frequency: Double = Double(SyntheticAudio.beepFrequency), minimumAmplitude: Double = 0.1,
        minimumSpacing: Double = 0.25
    ) {
        self.frequency = frequency
        self.minimumAmplitude = minimumAmplitude
        self.minimumSpacing = minimumSpacing
    }

    /// The beep onsets in `buffer`, in seconds from the buffer's pts timeline (pts + sample / rate).
    public func onsets(in buffer: PCMBuffer) throws(SyncError) -> [Double] {
        let mono = try MonoSamples(buffer)
        return onsetSamples(in: mono.values, sampleRate: mono.sampleRate).map {
            mono.startTime + Double($0) / Double(mono.sampleRate)
        }
    }

    /// The beep onsets in mono `samples` at `sampleRate`, as sample positions.
    public func onsetSamples(in samples: [Float], sampleRate: Int) -> [Int] {
        guard sampleRate > 0 else { return [] }
        let block = max(16, sampleRate / 200), hop = max(1, block / 2)
        let spacing = Int(minimumSpacing * Double(sampleRate))
        var onsets = [Int]()
        var armed = true
        samples.withUnsafeBufferPointer { x in
            var start = 0
            while start + block <= x.count {
                let amplitude = Self.goertzelAmplitude(
                    x, start: start, count: block,
                    frequency: frequency, sampleRate: sampleRate)
                if start == 0, amplitude >= minimumAmplitude {
                    armed = false  // A beep already sounding when the audio starts has no onset here.
                } else if armed, amplitude >= minimumAmplitude {
                    let onset = Self.refine(x, blockStart: start, block: block)
                    if let last = onsets.last, onset - last < spacing {
                        // Still the same beep (or an echo of it): not a new onset.
                    } else {
                        onsets.append(onset)
                    }
                    armed = false
                } else if !armed, amplitude < minimumAmplitude / 2 {
                    armed = true
                }
                start += hop
            }
        }
        return onsets
    }

    /// The first sample at or after one block before `blockStart` whose magnitude reaches half
    /// the peak magnitude over the two blocks from `blockStart`.
    private static func refine(_ x: UnsafeBufferPointer<Float>, blockStart: Int, block: Int) -> Int {
        let peakEnd = min(x.count, blockStart + 2 * block)
        var peak: Float = 0
        for i in blockStart..<peakEnd { peak = max(peak, abs(x[i])) }
        let level = peak / 2
        for i in max(0, blockStart - block)..<peakEnd where abs(x[i]) >= level { return i }
        return blockStart
    }

    /// The amplitude of the `frequency` component of `count` samples from `start` (Goertzel).
    private static func goertzelAmplitude(
        _ x: UnsafeBufferPointer<Float>, start: Int, count: Int,
        frequency: Double, sampleRate: Int
    ) -> Double {
        let coefficient = 2 * cos(2 * .pi * frequency / Double(sampleRate))
        var s1 = 0.0, s2 = 0.0
        for i in start..<(start + count) {
            let s0 = Double(x[i]) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * max(0, power).squareRoot() / Double(count)
    }
}
#endif
