#if os(Linux)
import CFFmpeg
import Foundation
import OnAirCore

/// A flag that ends a blocking libavformat open or read from another thread.
///
/// Handed to `MediaFileReader`, it becomes the format context's `AVIOInterruptCB`, and the
/// context reads in non-blocking mode, so raising it makes a pending open or read fail promptly
/// with `CaptureInterrupt.exitCode` instead of waiting for the device.
package final class CaptureInterrupt: Sendable {
    private let raised: Locked<Bool>
    /// Raised: the pending libavformat call gives up.
    private let condition: InterruptCondition

    /// Creates a lowered flag.
    package init() {
        let raised = Locked(false)
        self.raised = raised
        condition = InterruptCondition { raised.current }
    }

    /// Asks every open or read using this flag to give up as soon as it can.
    package func raise() {
        raised.withLock { $0 = true }
    }

    /// Whether `raise()` was called.
    package var isRaised: Bool { raised.current }

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

    /// The format context's interrupt callback (valid while this flag lives).
    var callback: AVIOInterruptCB { condition.callback }
}
#endif
