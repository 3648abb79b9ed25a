import Foundation

/// Runs the `--on-motion` command off the frame path: each run is queued on a serial queue of
/// its own (the capture thread only enqueues), at most `maximumPending` waiting (more are
/// skipped and said so through `log`); the command's exit is collected on that queue's thread.
package final class MotionHook: Sendable {
    /// Runs waiting at most; motion changes come seconds apart, so more means a stuck command.
    package static let maximumPending = 8

    private let command: String
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "onair.motion.hook")
    private let pending = Locked(0)

    /// A hook running `command` with `/bin/sh -c`; `log` hears why a run failed or was skipped.
    package init(command: String, log: @escaping @Sendable (String) -> Void) {
        self.command = command
        self.log = log
    }

    /// Queues one run for motion starting (`isMotion`) or ending at capture time `time` (seconds).
    package func run(isMotion: Bool, at time: Double) {
        let admitted = pending.withLock { count in
            guard count < Self.maximumPending else { return false }
            count += 1
            return true
        }
        guard admitted else {
            log("motion: the --on-motion command is still running \(Self.maximumPending) times over; this change is not run")
            return
        }
        queue.async { [self] in
            defer { pending.withLock { $0 -= 1 } }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            var environment = ProcessInfo.processInfo.environment
            environment["ONAIR_MOTION"] = isMotion ? "start" : "end"
            environment["ONAIR_MOTION_TIME"] = String(format: "%.3f", time)
            process.environment = environment
            do {
                try process.run()
            } catch {
                log("motion: cannot run the --on-motion command: \(error)")
                return
            }
            process.waitUntilExit()
            if process.terminationStatus != 0 {
                log("motion: the --on-motion command exited with status \(process.terminationStatus)")
            }
        }
    }
}
