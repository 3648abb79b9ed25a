#if os(Linux)
import CMicroHTTPD
import Foundation
import OnAirCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts connections whose request is not complete within a deadline, so a client that sends its
/// header a byte at a time (never idle, never finished) cannot hold a connection for long.
///
/// Connections are registered when libmicrohttpd accepts them and marked answered when their
/// request reaches the handler; on the deadline the socket of an unanswered one is shut down,
/// which makes libmicrohttpd close it. Each round also runs the server's `tick` (the watch over
/// suspended connections' peers), so the server has one housekeeping thread.
final class HTTPConnectionWatchdog: Sendable {
    private struct Entry {
        var socket: Int32
        var started: Double
        var answered: Bool
        /// Tells this connection from a later one at the same address.
        var serial: UInt64
    }

    private struct State {
        var entries: [HTTPCPointer: Entry] = [:]
        var stopped = false
        var cut = 0
        var nextSerial: UInt64 = 0
    }

    private let deadline: Double
    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    /// Watches with `deadline` seconds for each request, running `tick` at every round (at most
    /// every quarter of a second).
    init(deadline: Double, tick: @escaping @Sendable () -> Void = {}) {
        self.deadline = deadline
        let thread = Thread { [self] in
            onair_mhd_name_current_thread("onair.http.wdog")
            while !isStopped {
                Thread.sleep(forTimeInterval: min(0.25, deadline / 4))
                cutLateRequests()
                tick()
            }
            done.signal()
        }
        thread.start()
    }

    /// Requests cut for taking longer than the deadline, since the start.
    var requestsCut: Int { state.withLock { $0.cut } }

    func register(_ connection: OpaquePointer, socket: Int32) {
        let started = ProcessInfo.processInfo.systemUptime
        state.withLock { state in
            state.nextSerial &+= 1
            state.entries[HTTPCPointer(connection)] = Entry(
                socket: socket, started: started, answered: false, serial: state.nextSerial)
        }
    }

    /// What shuts `connection` down from any thread (libmicrohttpd then closes it), doing nothing
    /// once that connection is gone — even if another took its address and descriptor since; nil
    /// for a connection not registered.
    func closer(for connection: OpaquePointer) -> (@Sendable () -> Void)? {
        let handle = HTTPCPointer(connection)
        guard let serial = state.withLock({ $0.entries[handle]?.serial }) else { return nil }
        return { [state] in
            state.withLock { state in
                guard let entry = state.entries[handle], entry.serial == serial else { return }
                shutdown(entry.socket, Int32(SHUT_RDWR))
            }
        }
    }

    func answered(_ connection: OpaquePointer) {
        state.withLock { $0.entries[HTTPCPointer(connection)]?.answered = true }
    }

    /// A connection that keeps alive starts its next request's deadline when the previous answer ends.
    func restart(_ connection: OpaquePointer) {
        state.withLock { state in
            state.entries[HTTPCPointer(connection)]?.answered = false
            state.entries[HTTPCPointer(connection)]?.started = ProcessInfo.processInfo.systemUptime
        }
    }

    func unregister(_ connection: OpaquePointer) {
        state.withLock { $0.entries[HTTPCPointer(connection)] = nil }
    }

    func stop() {
        let already = state.withLock { state in
            let already = state.stopped
            state.stopped = true
            return already
        }
        if !already { done.wait() }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func cutLateRequests() {
        let now = ProcessInfo.processInfo.systemUptime
        // Under the lock: libmicrohttpd unregisters a connection before it closes its socket, so
        // the descriptor shut down here is still this connection's.
        state.withLock { state in
            for (connection, entry) in state.entries where !entry.answered && now - entry.started > deadline {
                shutdown(entry.socket, Int32(SHUT_RDWR))
                state.entries[connection]?.answered = true
                state.cut += 1
            }
        }
    }
}
#endif
