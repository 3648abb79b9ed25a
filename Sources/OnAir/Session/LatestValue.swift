import Foundation

/// A value read through a closure set later (the server asks for statistics the session keeps).
final class LatestValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var reader: (@Sendable () -> Value?)?

    var source: (@Sendable () -> Value?)? {
        get { lock.lock(); defer { lock.unlock() }; return reader }
        set { lock.lock(); reader = newValue; lock.unlock() }
    }

    var value: Value? { source?() }
}
