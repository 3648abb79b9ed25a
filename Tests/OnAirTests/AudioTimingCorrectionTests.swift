import OnAirCore
import Testing

/// The decisions that keep an audio encoder's sample count on its input's timestamps.
@Suite struct AudioTimingCorrectionTests {
    let correction = AudioTimingCorrection()

    @Test func holesAreFilledAndOverlapsCut() {
        #expect(correction.action(error: 24_000, sampleRate: 48_000, stretching: false) == .insertSilence(samples: 24_000))
        #expect(correction.action(error: -4_800, sampleRate: 48_000, stretching: false) == .drop(samples: 4_800))
        #expect(correction.action(error: 48_000 * 120, sampleRate: 48_000, stretching: false) == .restart)
    }

    @Test func smallErrorsAreResampledWithinTheStretchLimit() {
        #expect(correction.action(error: 10, sampleRate: 48_000, stretching: false) == .none)
        #expect(correction.action(error: 10, sampleRate: 48_000, stretching: true) == .stretch(delta: 10, distance: 48_000))
        #expect(correction.action(error: 1_000, sampleRate: 48_000, stretching: false) == .stretch(delta: 240, distance: 48_000))
        #expect(correction.action(error: -1_000, sampleRate: 48_000, stretching: false) == .stretch(delta: -240, distance: 48_000))
    }
}
