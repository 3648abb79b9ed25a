import Foundation

/// Hands each session event to the builder's handler and to every `AsyncStream` asked for,
/// from whichever thread the event happened on; finishing ends every stream.
final class SessionEventFanOut: @unchecked Sendable {
    private let lock = NSLock()
    private let handler: (@Sendable (SessionEvent) -> Void)?
    private var continuations: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    private var nextID = 0
    private var finished = false

    init(handler: (@Sendable (SessionEvent) -> Void)?) {
        self.handler = handler
    }

    /// A new stream of the events from now on; the newest 256 are kept for a slow reader.
    func stream() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        lock.lock()
        if finished {
            lock.unlock()
            continuation.finish()
            return stream
        }
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.lock()
            self.continuations[id] = nil
            self.lock.unlock()
        }
        return stream
    }

    func send(_ event: SessionEvent) {
        handler?(event)
        lock.lock()
        let targets = Array(continuations.values)
        lock.unlock()
        for continuation in targets { continuation.yield(event) }
    }

    func finish() {
        lock.lock()
        finished = true
        let targets = Array(continuations.values)
        continuations = [:]
        lock.unlock()
        for continuation in targets { continuation.finish() }
    }
}
