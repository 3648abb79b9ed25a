#if os(Linux)
import CMicroHTTPD
import Foundation
import OnAirCore

/// The threads that run request handlers away from the server's event loop, at most `limit` of
/// them: a handler that takes its time (a file read, a snapshot's encode, an MP4 stitched) holds
/// one of these, never the connections of others. Threads start as jobs need them and stay until
/// `stop`; jobs run in the order they came.
///
/// The state is in a box; the condition orders the waits and wakes around it: it is always taken
/// first (the box's lock only inside it), so a wake cannot fall between a check and its wait.
final class HTTPHandlerPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        var idle = 0
        var exited = 0
        var stopped = false
        var workers: Set<ObjectIdentifier> = []
    }

    private let limit: Int
    private let stackSize: Int
    private let condition = NSCondition()
    private let state = Locked(State())

    /// A pool of at most `limit` threads (at least one), each with `stackSize` bytes of stack
    /// (0: the system's default).
    init(limit: Int, stackSize: Int) {
        self.limit = max(1, limit)
        self.stackSize = stackSize
    }

    /// Runs `job` on a pool thread; false, and it never runs, once the pool stopped.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let limit = self.limit
        let (accepted, spawn) = condition.withLock {
            let decision = state.withLock { state -> (Bool, Bool) in
                guard !state.stopped else { return (false, false) }
                state.jobs.append(job)
                let spawn = state.jobs.count - state.head > state.idle && state.threads < limit
                if spawn { state.threads += 1 }
                return (true, spawn)
            }
            if decision.0 { condition.signal() }
            return decision
        }
        if spawn { start() }
        return accepted
    }

    /// Threads started so far.
    var threadCount: Int { state.withLock { $0.threads } }

    /// Drops the jobs not started and waits for the running ones to return (not for the caller's
    /// own, when a handler stops its server).
    func stop() {
        let current = ObjectIdentifier(Thread.current)
        condition.withLock {
            let own = state.withLock { state in
                state.stopped = true
                state.jobs = []
                state.head = 0
                return state.workers.contains(current) ? 1 : 0
            }
            condition.broadcast()
            while state.withLock({ $0.exited + own < $0.threads }) { condition.wait() }
        }
    }

    private func start() {
        let thread = Thread { [self] in
            onair_mhd_name_current_thread("onair.http.work")
            run()
        }
        if stackSize > 0 { thread.stackSize = stackSize }
        thread.start()
    }

    /// What a worker does next.
    private enum Next {
        case job(@Sendable () -> Void)
        case wait
        case exit
    }

    private func run() {
        let current = ObjectIdentifier(Thread.current)
        condition.lock()
        state.withLock { _ = $0.workers.insert(current) }
        while true {
            let next = state.withLock { state -> Next in
                if state.head < state.jobs.count {
                    let job = state.jobs[state.head]
                    state.head += 1
                    if state.head > 64 && state.head * 2 > state.jobs.count {
                        state.jobs.removeFirst(state.head)
                        state.head = 0
                    }
                    return .job(job)
                }
                if state.stopped { return .exit }
                state.idle += 1
                return .wait
            }
            switch next {
            case .job(let job):
                condition.unlock()
                job()
                condition.lock()
            case .wait:
                condition.wait()
                state.withLock { $0.idle -= 1 }
            case .exit:
                state.withLock { $0.exited += 1 }
                condition.broadcast()
                condition.unlock()
                return
            }
        }
    }
}
#endif
