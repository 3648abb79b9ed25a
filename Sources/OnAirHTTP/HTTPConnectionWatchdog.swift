#if os(Linux)
import CMicroHTTPD
import Foundation

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
final class HTTPConnectionWatchdog: @unchecked Sendable {
    private struct Entry {
        var socket: Int32
        var started: Double
        var answered: Bool
    }

    private let deadline: Double
    private let lock = NSLock()
    private var entries: [OpaquePointer: Entry] = [:]
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)
    private var cut = 0

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
    var requestsCut: Int {
        lock.lock()
        defer { lock.unlock() }
        return cut
    }

    func register(_ connection: OpaquePointer, socket: Int32) {
        lock.lock()
        entries[connection] = Entry(socket: socket, started: ProcessInfo.processInfo.systemUptime, answered: false)
        lock.unlock()
    }

    func answered(_ connection: OpaquePointer) {
        lock.lock()
        entries[connection]?.answered = true
        lock.unlock()
    }

    /// A connection that keeps alive starts its next request's deadline when the previous answer ends.
    func restart(_ connection: OpaquePointer) {
        lock.lock()
        entries[connection]?.answered = false
        entries[connection]?.started = ProcessInfo.processInfo.systemUptime
        lock.unlock()
    }

    func unregister(_ connection: OpaquePointer) {
        lock.lock()
        entries[connection] = nil
        lock.unlock()
    }

    func stop() {
        lock.lock()
        let already = stopped
        stopped = true
        lock.unlock()
        if !already { done.wait() }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func cutLateRequests() {
        let now = ProcessInfo.processInfo.systemUptime
        lock.lock()
        defer { lock.unlock() }
        // Under the lock: libmicrohttpd unregisters a connection before it closes its socket, so
        // the descriptor shut down here is still this connection's.
        for (connection, entry) in entries where !entry.answered && now - entry.started > deadline {
            shutdown(entry.socket, Int32(SHUT_RDWR))
            entries[connection]?.answered = true
            cut += 1
        }
    }
}
#endif
