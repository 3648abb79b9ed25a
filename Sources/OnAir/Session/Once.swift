import Foundation
import OnAirCore

/// Runs a closure at most once, from any thread.
final class Once: Sendable {
    private let done = Locked(false)

    func run(_ body: () -> Void) {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { body() }
    }
}
