import Foundation
import OnAir
import OnAirTestSupport
import Testing

/// The real-time synthetic source starts its picture and sound together, so a recording's first
/// second holds a whole flash and a whole beep however late the source's threads get going.
@Suite struct SyntheticSourceTests {
    /// The first video and audio timestamps (seconds) of a real-time source started `delay`
    /// seconds after its capture clock's zero.
    private func firstTimes(startedAfter delay: Double) throws -> (video: Double, audio: Double) {
        let source = try SyntheticSource(video: (width: 64, height: 48, frameRate: 30), audio: (sampleRate: 48000, channels: 1))
        let lock = NSLock()
        nonisolated(unsafe) var video: Double?
        nonisolated(unsafe) var audio: Double?
        let both = DispatchSemaphore(value: 0)
        let clock = CaptureClock()
        letTimePass(delay, "the capture clock runs before the source starts")
        try source.start(
            clock: clock,
            handlers: CaptureHandlers(
                video: { frame in
                    lock.lock()
                    defer { lock.unlock() }
                    if video == nil { video = frame.pts.seconds; if audio != nil { both.signal() } }
                },
                audio: { buffer in
                    lock.lock()
                    defer { lock.unlock() }
                    if audio == nil { audio = buffer.pts.seconds; if video != nil { both.signal() } }
                }))
        let arrived = both.wait(timeout: .now() + 10)
        source.stop()
        #expect(arrived == .success, "both streams delivered")
        lock.lock()
        defer { lock.unlock() }
        return (try #require(video), try #require(audio))
    }

    @Test func startedSoonAfterTheClockBothStreamsBeginAtZero() throws {
        // A tenth of a second late (a starved machine between making the clock and starting).
        let first = try firstTimes(startedAfter: 0.1)
        #expect(first.video == 0)
        #expect(first.audio == 0)
    }

    @Test func startedLongAfterTheClockBothStreamsBeginTogetherThen() throws {
        let first = try firstTimes(startedAfter: SyntheticSource.startTolerance + 0.2)
        #expect(first.video >= SyntheticSource.startTolerance + 0.2)
        #expect(abs(first.audio - first.video) < 0.001, "audio \(first.audio) s, video \(first.video) s")
    }
}
