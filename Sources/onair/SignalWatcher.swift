#if os(Linux)
import Foundation

/// The write end of the pipe the signal handler reports into (set once, before any handler is
/// installed; a handler may only make async-signal-safe calls, and `write` is one).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// The read end of that pipe.
nonisolated(unsafe) private var signalPipeReadEnd: Int32 = -1

/// Turns SIGINT (Ctrl-C) and SIGTERM into a flag the main loop polls, so files are finished cleanly.
///
/// A plain signal handler writes the signal's number into a pipe that `received` drains. The
/// handler is in place from the moment `init` returns: there is no window in which a signal is
/// ignored or lost (a dispatch signal source installs its handler later, on its own queue).
final class SignalWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var caught: Int32?
    private var readSource: (any DispatchSourceRead)?

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        if signalPipeWriteEnd < 0 {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                }
                signalPipeReadEnd = ends[0]
                signalPipeWriteEnd = ends[1]
            }
        }
        // A parent may start us with these signals blocked (the mask is inherited): unblock them
        // on this thread, which every later thread inherits, so the handler can run.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for number in signals {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
        }
    }

    /// Calls `action` (on a Dispatch queue) once a signal has been received, also one received
    /// before this call; the pipe is read as it fills, so nothing polls.
    func whenReceived(_ action: @escaping @Sendable () -> Void) {
        guard signalPipeReadEnd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: signalPipeReadEnd, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self, self.received != nil else { return }
            // Later signals change nothing (the first one decided): drain them, or the
            // level-triggered source would fire again and again.
            var byte: UInt8 = 0
            while read(signalPipeReadEnd, &byte, 1) == 1 {}
            action()
        }
        lock.withLock { readSource = source }
        source.resume()
    }

    deinit { readSource?.cancel() }

    /// The first signal received, if any.
    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        if caught == nil, signalPipeReadEnd >= 0 {
            var byte: UInt8 = 0
            if read(signalPipeReadEnd, &byte, 1) == 1 { caught = Int32(byte) }
        }
        return caught
    }
}
#endif
