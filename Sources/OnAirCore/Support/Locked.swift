import Foundation

/// A value shared between threads, reached only inside `withLock`: the one place such state is
/// kept (`Mutex` needs macOS 15 and iOS 18, above the package's minimum).
///
/// Unchecked Sendable: every access to `value` goes through `lock`.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock, and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    package var current: Value { withLock { $0 } }
}
