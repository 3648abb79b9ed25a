#if os(Linux)
import Foundation
import OnAirCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The connections libmicrohttpd has set aside (suspended) until something wakes them: a
/// handler's answer, a pending response's answer, a continuous source's next bytes.
///
/// Each suspension gets its own token, so a late wake never resumes a later suspension of the
/// same connection (or of another connection at the same address): a connection is resumed once
/// per suspension, by whoever wakes it first — the answer, the watch that sees its peer leave, or
/// the server's stop, which resumes them all (libmicrohttpd must not stop with any suspended) and
/// refuses new ones from then on.
final class HTTPSuspensions: Sendable {
    private struct Entry {
        let token: UInt64
        /// The socket watched for the peer's leaving, or -1.
        var socket: Int32
        /// What the connection's next callback must see when it is resumed without an answer
        /// (cheap: run under the lock).
        let drop: @Sendable () -> Void
        /// What else to do then (a pending response's cancel: run after the lock).
        var dropped: (@Sendable () -> Void)?
    }

    private struct State {
        var entries: [HTTPCPointer: Entry] = [:]
        var nextToken: UInt64 = 0
        var stopping = false
    }

    private let resume: @Sendable (HTTPCPointer) -> Void
    private let state = Locked(State())

    /// A registry that resumes a connection through `resume` (libmicrohttpd's, from any thread).
    init(resume: @escaping @Sendable (HTTPCPointer) -> Void) {
        self.resume = resume
    }

    /// Connections suspended now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Records `connection`, just suspended by the caller (on the event loop), and gives the token
    /// that wakes it; nil once the server stops (the caller resumes it at once). With `socket`
    /// (not -1) the peer is watched: its leaving drops the connection (`drop`, then `dropped`).
    func add(
        _ connection: HTTPCPointer, socket: Int32 = -1, drop: @escaping @Sendable () -> Void,
        dropped: (@Sendable () -> Void)? = nil
    ) -> UInt64? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            state.nextToken &+= 1
            state.entries[connection] = Entry(token: state.nextToken, socket: socket, drop: drop, dropped: dropped)
            return state.nextToken
        }
    }

    /// Starts watching the peer of a connection still suspended under `token` (a handler's pending
    /// answer); false when it was already resumed (dropped: then `dropped` is not kept).
    func watch(_ connection: HTTPCPointer, token: UInt64, socket: Int32, dropped: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.entries[connection]?.token == token else { return false }
            state.entries[connection]?.socket = socket
            state.entries[connection]?.dropped = dropped
            return true
        }
    }

    /// Resumes `connection` if it is still suspended under `token`, running `prepare` first (what
    /// its next callback will find); false, and nothing run, when it was resumed already.
    @discardableResult
    func wake(_ connection: HTTPCPointer, token: UInt64, prepare: () -> Void = {}) -> Bool {
        state.withLock { state in
            guard state.entries[connection]?.token == token else { return false }
            state.entries[connection] = nil
            prepare()
            resume(connection)
            return true
        }
    }

    /// Resumes, dropped, the connections whose peer left (a hang-up or an error on its socket).
    func dropLeftPeers() {
        let actions: [@Sendable () -> Void] = state.withLock { state in
            let watched = state.entries.filter { $0.value.socket >= 0 }
            guard !watched.isEmpty else { return [] }
            let readHangUp: Int16 = 0x2000  // POLLRDHUP, which Glibc exports only under _GNU_SOURCE
            var fds = watched.map { pollfd(fd: $0.value.socket, events: readHangUp, revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 0) > 0 else { return [] }
            var actions: [@Sendable () -> Void] = []
            for (index, (connection, entry)) in watched.enumerated()
            where fds[index].revents & (readHangUp | Int16(POLLHUP | POLLERR | POLLNVAL)) != 0 {
                state.entries[connection] = nil
                entry.drop()
                resume(connection)
                if let dropped = entry.dropped { actions.append(dropped) }
            }
            return actions
        }
        for action in actions { action() }
    }

    /// Resumes every suspended connection, dropped, and refuses suspensions from now on (the server
    /// stops).
    func dropAll() {
        let actions: [@Sendable () -> Void] = state.withLock { state in
            state.stopping = true
            let all = state.entries
            state.entries = [:]
            for (connection, entry) in all {
                entry.drop()
                resume(connection)
            }
            return all.values.compactMap(\.dropped)
        }
        for action in actions { action() }
    }
}
#endif
