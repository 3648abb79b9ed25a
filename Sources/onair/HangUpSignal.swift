#if os(Linux)
import Foundation
import Synchronization

/// The pipe the SIGHUP handler reports into, its write end non-blocking (nil when it could not be
/// made): made once, before the handler is installed (the handler only calls `write`, which is
/// async-signal-safe).
private let hangUpPipe: (read: Int32, write: Int32)? = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    return (ends[0], ends[1])
}()

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
final class HangUpSignal: Sendable {
    static let shared = HangUpSignal()
    private let state = Mutex<(actions: [(key: Int, action: @Sendable () -> Void)], nextKey: Int)>(([], 0))

    private init() {
        guard let ends = hangUpPipe else { return }
        var hangUp = sigset_t()
        sigemptyset(&hangUp)
        sigaddset(&hangUp, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &hangUp, nil)
        signal(SIGHUP) { _ in
            var byte: UInt8 = 1
            _ = write(hangUpPipe?.write ?? -1, &byte, 1)
        }
        let readEnd = ends.read
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
        state.withLock { state in
            state.nextKey += 1
            state.actions.append((state.nextKey, action))
            return state.nextKey
        }
    }

    /// Stops running the action added under `key`.
    func remove(_ key: Int) {
        state.withLock { $0.actions.removeAll { $0.key == key } }
    }

    private func run() {
        let current = state.withLock { $0.actions.map(\.action) }
        for action in current { action() }
    }
}
#endif
