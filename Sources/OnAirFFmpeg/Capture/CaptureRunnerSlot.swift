#if os(Linux)
import Foundation
import OnAirCore

/// Holds a capture source's current runner: at most one runs at a time, and `stop` reaches it
/// from any thread.
final class CaptureRunnerSlot: Sendable {
    private let runner = Locked<CaptureRunner?>(nil)

    /// Installs a new runner for `handlers`, after checking the requested output size.
    func claim(sourceName: String, handlers: CaptureHandlers, outputSize: (width: Int, height: Int)?) throws(CaptureError) -> CaptureRunner
    {
        if let size = outputSize, size.width <= 0 || size.height <= 0 || size.width % 2 != 0 || size.height % 2 != 0 {
            throw .invalidConfiguration(source: sourceName, problem: "size must be positive and even, got \(size.width)x\(size.height)")
        }
        let runner = CaptureRunner(sourceName: sourceName, handlers: handlers)
        let installed = self.runner.withLock { current in
            if current?.isRunning == true { return false }
            current = runner
            return true
        }
        guard installed else { throw .alreadyStarted(source: sourceName) }
        return runner
    }

    /// Stops the current runner, if any, and waits for it.
    func stop() {
        runner.current?.stop()
    }
}
#endif
