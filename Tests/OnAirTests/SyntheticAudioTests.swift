#if os(Linux)
import Foundation
import OnAir
import Testing

@Suite struct SyntheticAudioTests {
    private func floats(_ buffer: PCMBuffer) -> [Float] {
        buffer.planes[0].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func outputDoesNotDependOnChunking() throws {
        let audio = try SyntheticAudio(sampleRate: 48000, channels: 2)
        let whole = audio.samples(startingAt: 40_000, count: 100_000)
        var chunked = [UInt8]()
        var position: Int64 = 40_000
        var random = SystemRandomNumberGenerator()
        while position < 140_000 {
            let count = min(Int.random(in: 1...3000, using: &random), Int(140_000 - position))
            let chunk = audio.samples(startingAt: position, count: count)
            #expect(chunk.pts == MediaTime(value: position, timescale: 48000))
            #expect(chunk.layoutProblem() == nil)
            chunked += chunk.planes[0]
            position += Int64(count)
        }
        #expect(chunked == whole.planes[0])
        #expect(whole.frameCount == 100_000 && whole.sampleFormat == .f32 && !whole.isPlanar)
    }

    @Test func beepStartsExactlyOnEachWholeSecond() throws {
        let audio = try SyntheticAudio(sampleRate: 44100, channels: 1)
        for second: Int64 in [1, 2, 5] {
            let around = floats(audio.samples(startingAt: second * 44100 - 200, count: 400))
            // Before the second: only the quiet tone. From the second on: beep plus tone.
            #expect(around[0..<200].allSatisfy { abs($0) <= 0.0501 })
            #expect(around[200] == 0)  // both sines start at phase 0 on the second
            #expect(around[200..<400].map { abs($0) }.max()! > 0.45)
        }
        let beepEnd = Int64(audio.beepSampleCount)
        let after = floats(audio.samples(startingAt: 44100 + beepEnd, count: 1000))
        #expect(after.allSatisfy { abs($0) <= 0.0501 })
    }

    @Test func detectorFindsCleanOnsetsToTheSample() throws {
        let audio = try SyntheticAudio(sampleRate: 48000, channels: 2)
        // Starting mid-beep: that beep has no onset in the buffer and must not be reported.
        let buffer = audio.samples(startingAt: 1000, count: 48000 * 4 - 2000)
        let onsets = try BeepDetector().onsets(in: buffer)
        #expect(onsets.count == 3)
        for (k, onset) in zip(1..., onsets) {
            #expect(onset >= Double(k) && onset - Double(k) < 2.5 / 48000)
        }
    }

    @Test func detectorReadsPlanarS16AndRejectsMalformedBuffers() throws {
        let audio = try SyntheticAudio(sampleRate: 16000, channels: 1)
        let samples = floats(audio.samples(startingAt: 0, count: 16000 * 3))
        let s16 = samples.flatMap { sample -> [UInt8] in
            let value = UInt16(bitPattern: Int16(sample * 32767))
            return [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        let planar = PCMBuffer(
            sampleFormat: .s16, isPlanar: true, sampleRate: 16000, channels: 2, frameCount: samples.count,
            planes: [s16, s16], pts: MediaTime(seconds: 10))
        let onsets = try BeepDetector().onsets(in: planar)
        #expect(onsets.count == 2)
        #expect(abs(onsets[0] - 11) < 0.0005 && abs(onsets[1] - 12) < 0.0005)
        var short = planar
        short.planes[1] = Array(s16.prefix(10))
        #expect(throws: SyncError.self) { try BeepDetector().onsets(in: short) }
        var huge = planar
        huge.frameCount = Int.max / 2
        #expect(throws: SyncError.self) { try BeepDetector().onsets(in: huge) }
    }

    @Test func rejectsBadSettings() {
        #expect(throws: SettingsError.self) { try SyntheticAudio(sampleRate: 100, channels: 2) }
        #expect(throws: SettingsError.self) { try SyntheticAudio(sampleRate: 48000, channels: 0) }
    }
}
#endif
