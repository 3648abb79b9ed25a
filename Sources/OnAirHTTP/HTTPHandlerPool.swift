#if os(Linux)
import CMicroHTTPD
import Foundation

/// The threads that run request handlers away from the server's event loop, at most `limit` of
/// them: a handler that takes its time (a file read, a snapshot's encode, an MP4 stitched) holds
/// one of these, never the connections of others. Threads start as jobs need them and stay until
/// `stop`; jobs run in the order they came.
final class HTTPHandlerPool: @unchecked Sendable {
    private let limit: Int
    private let stackSize: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private var exited = 0
    private var stopped = false
    private var workers: Set<ObjectIdentifier> = []

    /// A pool of at most `limit` threads (at least one), each with `stackSize` bytes of stack
    /// (0: the system's default).
    init(limit: Int, stackSize: Int) {
        self.limit = max(1, limit)
        self.stackSize = stackSize
    }

    /// Runs `job` on a pool thread; false, and it never runs, once the pool stopped.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        guard !stopped else {
            condition.unlock()
            return false
        }
        jobs.append(job)
        let spawn = jobs.count - head > idle && threads < limit
        if spawn { threads += 1 }
        condition.signal()
        condition.unlock()
        if spawn { start() }
        return true
    }

    /// Threads started so far.
    var threadCount: Int { condition.withLock { threads } }

    /// Drops the jobs not started and waits for the running ones to return (not for the caller's
    /// own, when a handler stops its server).
    func stop() {
        condition.lock()
        stopped = true
        jobs = []
        head = 0
        condition.broadcast()
        let own = workers.contains(ObjectIdentifier(Thread.current)) ? 1 : 0
        while exited + own < threads { condition.wait() }
        condition.unlock()
    }

    private func start() {
        let thread = Thread { [self] in
            onair_mhd_name_current_thread("onair.http.work")
            run()
        }
        if stackSize > 0 { thread.stackSize = stackSize }
        thread.start()
    }

    private func run() {
        condition.lock()
        workers.insert(ObjectIdentifier(Thread.current))
        while true {
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                if head > 64 && head * 2 > jobs.count {
                    jobs.removeFirst(head)
                    head = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            if stopped { break }
            idle += 1
            condition.wait()
            idle -= 1
        }
        exited += 1
        condition.broadcast()
        condition.unlock()
    }
}
#endif
