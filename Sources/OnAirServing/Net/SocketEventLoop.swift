#if os(Linux)
import Foundation
import COnAirNet
import Glibc
import OnAirCore

/// One thread that waits in epoll for every socket it is given and runs their handlers, the work
/// other threads hand it and its timers: the whole of a server's networking, whatever the number
/// of connections (issue 45: no thread per viewer).
///
/// Thread rule: handlers, tasks and timers run on the loop's thread, one at a time, in the order
/// they became due; a handler must never block (sockets are non-blocking, a full socket waits for
/// `writable`). `register`, `change`, `unregister`, `execute`, `schedule` and `cancel` may be
/// called from any thread. Close a descriptor only after `unregister` (from the loop's thread, or
/// in a task), so that no handler runs for a number the kernel has given to another socket.
package final class SocketEventLoop: Sendable {
    /// What a socket is waited for, and what it is ready for.
    package struct Events: OptionSet, Sendable, Hashable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Bytes (or a connection to accept) can be read.
        package static let readable = Events(rawValue: UInt32(ONAIR_NET_READABLE))
        /// Bytes can be written.
        package static let writable = Events(rawValue: UInt32(ONAIR_NET_WRITABLE))
        /// The peer closed or the socket failed (always reported, never asked for).
        /// The peer shut its side down (asked for with every registration).
        static let peerClosed = Events(rawValue: UInt32(ONAIR_NET_PEER_CLOSED))
        package static let closed = Events(
            rawValue: UInt32(ONAIR_NET_HANGUP | ONAIR_NET_ERROR | ONAIR_NET_PEER_CLOSED))
    }

    /// What runs when a socket is ready.
    package typealias Handler = @Sendable (Events) -> Void

    private struct Timer {
        let deadline: Double
        let id: Int
        let work: @Sendable () -> Void
    }

    private struct State {
        var handlers: [Int32: Handler] = [:]
        var tasks: [@Sendable () -> Void] = []
        /// Ordered by deadline, then by id (the order they were scheduled).
        var timers: [Timer] = []
        var nextTimer = 1
        var stopping = false
        var thread: pthread_t?
    }

    private let epoll: Int32
    private let wake: Int32
    private let state = Locked(State())
    private let finished = DispatchGroup()
    /// The monotonic clock timers are due on (seconds).
    package let now: @Sendable () -> Double

    /// Seconds on the system's monotonic clock (the hub's `systemUptime`).
    package static let monotonic: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }

    /// Starts the loop's thread, named `name`; timers are due on `now`.
    package init(name: String, now: @escaping @Sendable () -> Double = SocketEventLoop.monotonic) throws {
        self.now = now
        epoll = onair_net_epoll_create()
        guard epoll >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        wake = onair_net_eventfd()
        guard wake >= 0 else {
            let code = errno
            close(epoll)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        guard onair_net_epoll_set(epoll, 0, wake, Events.readable.rawValue) == 0 else {
            let code = errno
            close(wake)
            close(epoll)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        finished.startThread(named: name) { [self] in run() }
    }

    deinit {
        close(wake)
        close(epoll)
    }

    /// Whether the caller is the loop's own thread.
    package var isLoopThread: Bool {
        guard let thread = state.withLock({ $0.thread }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Waits for `events` on `fd` (non-blocking, owned by the caller) and calls `handler` on the
    /// loop's thread with what it is ready for. Level-triggered: a handler that leaves bytes
    /// unread is called again.
    package func register(_ fd: Int32, for events: Events, handler: @escaping Handler) throws {
        state.withLock { $0.handlers[fd] = handler }
        guard onair_net_epoll_set(epoll, 0, fd, events.union(.peerClosed).rawValue) == 0 else {
            let code = errno
            _ = state.withLock { $0.handlers.removeValue(forKey: fd) }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Waits for `events` on a registered `fd` from now on.
    package func change(_ fd: Int32, to events: Events) {
        _ = onair_net_epoll_set(epoll, 1, fd, events.union(.peerClosed).rawValue)
    }

    /// Stops waiting on `fd`; its handler is not called again once this returns on the loop's
    /// thread (from another thread, an event already taken may still be handled).
    package func unregister(_ fd: Int32) {
        _ = state.withLock { $0.handlers.removeValue(forKey: fd) }
        _ = onair_net_epoll_set(epoll, 2, fd, 0)
    }

    /// Runs `work` on the loop's thread, after what is running now (from any thread).
    package func execute(_ work: @escaping @Sendable () -> Void) {
        let first = state.withLock { state in
            state.tasks.append(work)
            return state.tasks.count == 1
        }
        if first { signal() }
    }

    /// Runs `work` on the loop's thread once `seconds` have passed on `now`; returns a number for `cancel`.
    @discardableResult
    package func schedule(after seconds: Double, _ work: @escaping @Sendable () -> Void) -> Int {
        let deadline = now() + max(0, seconds)
        let (id, earliest) = state.withLock { state in
            let timer = Timer(deadline: deadline, id: state.nextTimer, work: work)
            state.nextTimer += 1
            let index = state.timers.firstIndex { $0.deadline > deadline } ?? state.timers.endIndex
            state.timers.insert(timer, at: index)
            return (timer.id, index == 0)
        }
        if earliest { signal() }
        return id
    }

    /// Drops a timer that has not run yet.
    package func cancel(_ timer: Int) {
        state.withLock { $0.timers.removeAll { $0.id == timer } }
    }

    /// Ends the loop after the work running now and waits for its thread (not from the loop's
    /// own thread). Handlers, tasks and timers still waiting are dropped.
    package func stop() {
        precondition(!isLoopThread, "SocketEventLoop.stop() from its own thread would wait for itself")
        state.withLock { $0.stopping = true }
        signal()
        finished.wait()
        state.withLock { state in
            state.handlers = [:]
            state.tasks = []
            state.timers = []
        }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func run() {
        state.withLock { $0.thread = pthread_self() }
        var fds = [Int32](repeating: -1, count: 64)
        var ready = [UInt32](repeating: 0, count: 64)
        while true {
            let wait = state.withLock { state -> Int32? in
                if state.stopping { return nil }
                if !state.tasks.isEmpty { return 0 }
                guard let first = state.timers.first else { return -1 }
                // Rounded up, so a timer is never woken for early and waited for again at 0 ms.
                return Int32(min(60_000, max(0, ((first.deadline - now()) * 1000).rounded(.up))))
            }
            guard let wait else { return }
            let count = onair_net_epoll_wait(epoll, &fds, &ready, Int32(fds.count), wait)
            for index in 0..<max(0, Int(count)) {
                let fd = fds[index]
                if fd == wake {
                    var value: UInt64 = 0
                    _ = read(wake, &value, 8)
                    continue
                }
                guard let handler = state.withLock({ $0.handlers[fd] }) else { continue }
                handler(Events(rawValue: ready[index]))
            }
            for task in state.withLock({ state -> [@Sendable () -> Void] in
                defer { state.tasks = [] }
                return state.tasks
            }) {
                task()
            }
            let due = state.withLock { state -> [Timer] in
                let time = now()
                let count = state.timers.prefix { $0.deadline <= time }.count
                defer { state.timers.removeFirst(count) }
                return Array(state.timers.prefix(count))
            }
            for timer in due { timer.work() }
        }
    }
}
#endif
