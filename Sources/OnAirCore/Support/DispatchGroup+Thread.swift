import Foundation

extension DispatchGroup {
    /// Runs `body` on a new named thread that belongs to this group until `body` returns, so
    /// `wait()` on the group waits for it. FFmpeg calls block: they get dedicated threads, not
    /// Swift's cooperative pool.
    public func startThread(named name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        enter()
        let thread = Thread { [self] in
            body()
            leave()
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
}
