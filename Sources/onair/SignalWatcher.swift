import Foundation

/// Turns SIGINT (Ctrl-C) and SIGTERM into a flag the main loop polls, so files are finished cleanly.
final class SignalWatcher: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()
    private var caught: Int32?

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.note(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, if any.
    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return caught
    }

    private func note(_ number: Int32) {
        lock.lock()
        if caught == nil { caught = number }
        lock.unlock()
    }
}
