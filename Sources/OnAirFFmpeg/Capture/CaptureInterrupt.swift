#if os(Linux)
import CFFmpeg
import Foundation

/// A flag that ends a blocking libavformat open or read from another thread.
///
/// Handed to `MediaFileReader`, it becomes the format context's `AVIOInterruptCB`, and the
/// context reads in non-blocking mode, so raising it makes a pending open or read fail promptly
/// with `CaptureInterrupt.exitCode` instead of waiting for the device.
package final class CaptureInterrupt: InterruptCondition, @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    /// Creates a lowered flag.
    package override init() {}

    /// Asks every open or read using this flag to give up as soon as it can.
    package func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    /// Whether `raise()` was called.
    package var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    /// AVERROR_EXIT ("Immediate exit requested"), what libavformat returns when interrupted.
    package static let exitCode: Int32 = {
        let tag =
            UInt32(UInt8(ascii: "E")) | UInt32(UInt8(ascii: "X")) << 8
            | UInt32(UInt8(ascii: "I")) << 16 | UInt32(UInt8(ascii: "T")) << 24
        return -Int32(bitPattern: tag)
    }()

    /// Waits a moment before a non-blocking read is retried; returns false when the flag was raised.
    func pauseBeforeRetry() -> Bool {
        if isRaised { return false }
        Thread.sleep(forTimeInterval: 0.002)
        return !isRaised
    }

    /// Raised: the pending libavformat call gives up.
    override var shouldInterrupt: Bool { isRaised }
}
#endif
