import Foundation
import OnAirCore

/// A source the app feeds itself: pictures and sound made or received by the app go into a
/// session with `send`, stamped on the session's clock (`now()`); `finish()` ends it like the end
/// of a file. Hand it to `SessionBuilder.sources(_:)`.
///
/// Send in order per stream. From async code, `await send(…)` suspends while the session has no
/// room (audio) and never holds a thread of the cooperative pool; from the app's own thread (a
/// capture callback), `sendSynchronously` blocks that thread instead. Either way a video frame the
/// encoder cannot take in time is dropped and counted (the newest pictures win), audio waits.
public final class AppSource: CaptureSource, Sendable {
    /// The source's name in statistics and messages.
    public let name: String
    /// The streams the app sends (video, audio or both).
    public let mediaTypes: Set<MediaType>
    private let state = Locked<(handlers: CaptureHandlers?, clock: CaptureClock?, ended: Bool)>((nil, nil, false))
    /// Held while a handler runs, so `stop()` returns only after the last delivery.
    private let delivery = Locked(())
    /// Where async sends deliver: a serial queue of its own (not the cooperative pool), so a
    /// delivery that waits for room suspends only the sending task.
    private let deliveries = DispatchQueue(label: "onair.app-source")

    /// A source delivering `mediaTypes` (video, audio or both), named `name` in statistics.
    public init(name: String = "app", mediaTypes: Set<MediaType>) {
        self.name = name
        self.mediaTypes = mediaTypes
    }

    /// The session's clock reading now, to stamp what is sent (zero before the session starts).
    public func now() -> MediaTime {
        state.withLock { $0.clock?.now() ?? .zero }
    }

    /// Seconds since the session started (zero before it starts).
    public var elapsed: Double {
        state.withLock { $0.clock?.elapsed ?? 0 }
    }

    /// Whether the session is running and takes what is sent.
    public var isRunning: Bool {
        state.withLock { $0.handlers != nil && !$0.ended }
    }

    /// Sends a picture from the app's own thread (a capture callback; never from async code, use
    /// `send`); ignored before the session starts and after it stops.
    public func sendSynchronously(_ frame: VideoFrame) {
        guard mediaTypes.contains(.video) else { return }
        delivery.withLock { _ in current()?.video(frame) }
    }

    /// Sends a run of samples from the app's own thread, blocking it while the session's audio
    /// queue is full (a capture callback; never from async code, use `send`); ignored before the
    /// session starts and after it stops.
    public func sendSynchronously(_ buffer: PCMBuffer) {
        guard mediaTypes.contains(.audio) else { return }
        delivery.withLock { _ in current()?.audio(buffer) }
    }

    /// Sends a picture from async code: returns once the session has taken it (or dropped an
    /// older one for it); ignored before the session starts and after it stops.
    public func send(_ frame: VideoFrame) async {
        await deliverOffPool { self.sendSynchronously(frame) }
    }

    /// Sends a run of samples from async code: suspends while the session's audio queue is full
    /// (back pressure); ignored before the session starts and after it stops.
    public func send(_ buffer: PCMBuffer) async {
        await deliverOffPool { self.sendSynchronously(buffer) }
    }

    /// Runs a delivery that may block (a full queue) on the source's own serial queue and
    /// suspends until it is done, keeping order between the async sends.
    private func deliverOffPool(_ delivery: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            deliveries.async {
                delivery()
                continuation.resume()
            }
        }
    }

    /// Ends the source (as the end of a file; `error` when the app's own input failed).
    public func finish(error: (any Error)? = nil) {
        let handlers = state.withLock { state in
            defer { state.ended = true }
            return state.ended ? nil : state.handlers
        }
        handlers?.ended(error)
    }

    /// Called by the session: from now on `send` delivers to `handlers`, stamped on `clock`.
    package func start(clock: CaptureClock, handlers: CaptureHandlers) throws {
        state.withLock { $0 = (handlers, clock, false) }
    }

    /// Called by the session: waits for a delivery under way, after which `send` delivers nothing.
    public func stop() {
        delivery.withLock { _ in
            state.withLock { state in
                state.ended = true
                state.handlers = nil
            }
        }
    }

    private func current() -> CaptureHandlers? {
        state.withLock { $0.ended ? nil : $0.handlers }
    }
}
