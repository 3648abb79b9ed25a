#if os(Linux)
import Foundation
import OnAirCore

/// Runs one capture loop on its own thread and guards delivery to the handlers, so that after
/// `stop()` returns nothing more is delivered even if a device read is still blocked.
///
/// The loop opens its FFmpeg objects on the thread itself (they never cross threads), reports
/// the outcome through `opened`, and `start` waits for that outcome so open errors are thrown.
/// Unchecked Sendable: vars under a recursive lock (a handler may stop the runner inside a delivery; `Locked` is not recursive)
final class CaptureRunner: @unchecked Sendable {
    /// Raised by `stop()`; pass it to `MediaFileReader` so blocking reads end.
    let interrupt = CaptureInterrupt()
    let sourceName: String
    private let handlers: CaptureHandlers
    private let lock = NSRecursiveLock()
    private var stopped = false
    private var thread: Thread?
    private let done = DispatchGroup()
    private let openResult = DispatchSemaphore(value: 0)
    private var openError: CaptureError?

    /// How long `stop()` waits for a blocked read before returning anyway.
    static let stopGrace: Double = 1.0
    /// How long `start` waits for a device to open.
    static let openTimeout: Double = 20

    init(sourceName: String, handlers: CaptureHandlers) {
        self.sourceName = sourceName
        self.handlers = handlers
    }

    /// Starts `body` on a new thread and waits until it calls `opened`; throws the open error it reports.
    func start(body: @escaping @Sendable (CaptureRunner) -> Void) throws(CaptureError) {
        done.enter()
        let thread = Thread { [self] in
            body(self)
            // In case the body returned without reporting (it always should).
            reportOpened(nil)
            done.leave()
        }
        thread.name = "onair.capture \(sourceName)"
        thread.stackSize = 1 << 20
        lock.lock()
        self.thread = thread
        lock.unlock()
        thread.start()
        if openResult.wait(timeout: .now() + Self.openTimeout) == .timedOut {
            stop()
            throw .openTimedOut(source: sourceName, seconds: Self.openTimeout)
        }
        lock.lock()
        let error = openError
        lock.unlock()
        if let error {
            stop()
            throw error
        }
    }

    private var reported = false

    /// Called by the loop once: nil when the source is open and capture begins, else why it failed.
    func reportOpened(_ error: CaptureError?) {
        lock.lock()
        defer { lock.unlock() }
        guard !reported else { return }
        reported = true
        openError = error
        openResult.signal()
    }

    /// Whether the loop should keep going.
    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !stopped
    }

    /// Hands a frame to the video handler unless stopped; returns whether capture continues.
    @discardableResult
    func deliver(_ frame: VideoFrame) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return false }
        handlers.video(frame)
        return !stopped
    }

    /// Hands samples to the audio handler unless stopped; returns whether capture continues.
    @discardableResult
    func deliver(_ buffer: PCMBuffer) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return false }
        handlers.audio(buffer)
        return !stopped
    }

    /// Reports that the source ended by itself (nil) or failed, unless it was stopped first.
    func end(_ error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        handlers.ended(error)
    }

    /// Stops delivery, interrupts the loop and waits briefly for its thread to finish.
    func stop() {
        interrupt.raise()
        lock.lock()
        stopped = true
        let onCaptureThread = thread.map { $0 === Thread.current } ?? false
        lock.unlock()
        if !onCaptureThread {
            _ = done.wait(timeout: .now() + Self.stopGrace)
        }
    }
}
#endif
