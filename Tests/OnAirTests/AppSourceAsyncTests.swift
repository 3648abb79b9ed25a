import Foundation
import OnAir
import Testing

/// `AppSource`'s async sends: back pressure that suspends the sending task, never a thread of the
/// cooperative pool.
@Suite struct AppSourceAsyncTests {
    /// Signals, from any thread, what the test awaits (no polling, no sleeps).
    private final class Gate: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var waiting: [(Int, CheckedContinuation<Void, Never>)] = []

        func arrive() {
            lock.lock()
            count += 1
            let ready = waiting.filter { $0.0 <= count }
            waiting.removeAll { $0.0 <= count }
            lock.unlock()
            for (_, continuation) in ready { continuation.resume() }
        }

        func wait(for target: Int) async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if count >= target {
                    lock.unlock()
                    continuation.resume()
                    return
                }
                waiting.append((target, continuation))
                lock.unlock()
            }
        }
    }

    private final class Flags: @unchecked Sendable {
        private let lock = NSLock()
        private var done = 0
        func finish() { lock.withLock { done += 1 } }
        var finished: Int { lock.withLock { done } }
    }

    private static func buffer() -> PCMBuffer {
        PCMBuffer(
            sampleFormat: .s16, isPlanar: false, sampleRate: 48_000, channels: 1, frameCount: 4,
            planes: [[1, 0, 2, 0, 3, 0, 4, 0]], pts: .zero)
    }

    /// Eight sources whose session takes no audio (its handler blocks, as a full queue does):
    /// eight tasks `await send` and stay suspended, while an unrelated task still runs on the
    /// pool (two threads here: eight blocked sends on it would starve it); once the session takes
    /// the audio, every send returns.
    @Test(.timeLimit(.minutes(1)))
    func aFullQueueSuspendsTheSenderNotThePool() async throws {
        let entered = Gate()
        let release = DispatchSemaphore(value: 0)
        let flags = Flags()
        let sources = (0..<8).map { AppSource(name: "app\($0)", mediaTypes: [.audio]) }
        for source in sources {
            try source.start(
                clock: CaptureClock(),
                handlers: CaptureHandlers(audio: { _ in
                    entered.arrive()
                    release.wait()
                }))
        }
        let senders = sources.map { source in
            Task {
                await source.send(Self.buffer())
                flags.finish()
            }
        }
        await entered.wait(for: 8)
        // Every delivery is blocked inside the session: no send can have returned.
        #expect(flags.finished == 0)
        // The pool is free: an unrelated task runs to its end.
        let unrelated = await Task { (1...1000).reduce(0, +) }.value
        #expect(unrelated == 500_500)
        for _ in 0..<8 { release.signal() }
        for sender in senders { await sender.value }
        #expect(flags.finished == 8)
    }

    /// Async sends keep their order, and a stopped source takes nothing more.
    @Test func asyncSendsArriveInOrderAndStopAfterStop() async throws {
        let source = AppSource(mediaTypes: [.video])
        let seen = Seen()
        try source.start(clock: CaptureClock(), handlers: CaptureHandlers(video: { seen.add($0.pts.value) }))
        for index in 0..<50 {
            await source.send(VideoFrame(width: 16, height: 16, pixelFormat: .yuv420p, pts: MediaTime(value: Int64(index), timescale: 30)))
        }
        source.stop()
        await source.send(VideoFrame(width: 16, height: 16, pixelFormat: .yuv420p, pts: MediaTime(value: 99, timescale: 30)))
        #expect(seen.values == Array(0..<50))
    }

    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int64] = []
        func add(_ value: Int64) { lock.withLock { list.append(value) } }
        var values: [Int64] { lock.withLock { list } }
    }
}
