#if os(Linux)
import Foundation
import Synchronization

/// Waits on the calling (non-async) thread for async work: the command line's commands are
/// synchronous, the library's opening is async (it runs off the cooperative pool itself).
enum Blocking {
    static func wait<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                box.set(.success(try await operation()))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return try box.get()
    }

    private final class ResultBox<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)
        func set(_ result: Result<T, any Error>) { self.result.withLock { $0 = result } }
        func get() throws -> T { try result.withLock { $0! }.get() }
    }
}
#endif
