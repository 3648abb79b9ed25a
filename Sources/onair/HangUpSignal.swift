#if os(Linux)
import Foundation

/// The write end of the pipe the SIGHUP handler reports into (set once, before the handler is
/// installed; the handler only calls `write`, which is async-signal-safe).
nonisolated(unsafe) private var hangUpPipeWriteEnd: Int32 = -1

/// SIGHUP as an event for every part of `onair serve` that reloads (the configuration, the TLS
/// certificate): a plain handler writes a byte into a pipe that a thread of its own reads, and
/// each byte runs every registered action, in the order they were added.
///
/// One handler for the process, whatever signal mask it was started with (the installing thread
/// unblocks SIGHUP, as `SignalWatcher` does for SIGINT and SIGTERM). Dispatch signal sources
/// beside `signal(SIGHUP, SIG_IGN)` lost the signal when no thread blocked it: the certificate
/// watcher's later `SIG_IGN` replaced what the configuration's source had set up, and a SIGHUP
/// to a process started with an empty mask (systemd, or a test harness that clears it) was
/// dropped as ignored — 3 of 4 runs of the TLS reload test.
final class HangUpSignal: @unchecked Sendable {
    static let shared = HangUpSignal()
    private let lock = NSLock()
    private var actions: [(key: Int, action: @Sendable () -> Void)] = []
    private var nextKey = 0

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        hangUpPipeWriteEnd = ends[1]
        var hangUp = sigset_t()
        sigemptyset(&hangUp)
        sigaddset(&hangUp, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &hangUp, nil)
        signal(SIGHUP) { _ in
            var byte: UInt8 = 1
            _ = write(hangUpPipeWriteEnd, &byte, 1)
        }
        let readEnd = ends[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    run()
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        thread.name = "onair.sighup"
        thread.start()
    }

    /// Installs the handler: from now on SIGHUP runs the registered actions and never stops the
    /// process.
    static func install() { _ = shared }

    /// Runs `action` on every SIGHUP until `remove` is given the key it returns.
    @discardableResult
    func add(_ action: @escaping @Sendable () -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        nextKey += 1
        actions.append((nextKey, action))
        return nextKey
    }

    /// Stops running the action added under `key`.
    func remove(_ key: Int) {
        lock.lock()
        actions.removeAll { $0.key == key }
        lock.unlock()
    }

    private func run() {
        lock.lock()
        let current = actions.map(\.action)
        lock.unlock()
        for action in current { action() }
    }
}
#endif
