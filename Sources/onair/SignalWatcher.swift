#if os(Linux)
import Foundation
import Synchronization

/// The pipe the signal handler reports into, both ends non-blocking (-1 when it could not be made):
/// made once, by the first watcher, before any handler is installed (a handler may only make
/// async-signal-safe calls, and `write` is one).
private let signalPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return (-1, -1) }
    for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    return (ends[0], ends[1])
}()
private var signalPipeReadEnd: Int32 { signalPipe.read }

/// Turns SIGINT (Ctrl-C) and SIGTERM into a flag the main loop polls, so files are finished cleanly.
///
/// A plain signal handler writes the signal's number into a pipe that `received` drains. The
/// handler is in place from the moment `init` returns: there is no window in which a signal is
/// ignored or lost (a dispatch signal source installs its handler later, on its own queue).
final class SignalWatcher: Sendable {
    private let state = Mutex<(caught: Int32?, readSource: (any DispatchSourceRead)?)>((nil, nil))

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        _ = signalPipe
        // A parent may start us with these signals blocked (the mask is inherited): unblock them
        // on this thread, which every later thread inherits, so the handler can run.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for number in signals {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipe.write, &byte, 1)
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
        state.withLock { $0.readSource = source }
        source.resume()
    }

    deinit { state.withLock { $0.readSource?.cancel() } }

    /// The first signal received, if any.
    var received: Int32? {
        state.withLock { state in
            if state.caught == nil, signalPipeReadEnd >= 0 {
                var byte: UInt8 = 0
                if read(signalPipeReadEnd, &byte, 1) == 1 { state.caught = Int32(byte) }
            }
            return state.caught
        }
    }
}
#endif
