import Foundation

/// Hands each session event to the builder's handler and to every subscriber's
/// `SessionEventStream`, from whichever thread the event happened on; finishing ends every stream.
final class SessionEventFanOut: @unchecked Sendable {
    private let lock = NSLock()
    private let handler: (@Sendable (SessionEvent) -> Void)?
    private var buffers: [Int: SessionEventBuffer] = [:]
    private var nextID = 0
    private var finished = false
    /// Sees every event before the handler (the session wakes its monitor on a failed output).
    private var observer: (@Sendable (SessionEvent) -> Void)?

    init(handler: (@Sendable (SessionEvent) -> Void)?) {
        self.handler = handler
    }

    /// A new stream of the events from now on (see `SessionEventStream` for what a slow reader keeps).
    func stream(capacity: Int = SessionEventStream.capacity) -> SessionEventStream {
        let buffer = SessionEventBuffer(capacity: capacity)
        lock.lock()
        if finished {
            lock.unlock()
            buffer.finish()
            return SessionEventStream(buffer: buffer)
        }
        let id = nextID
        nextID += 1
        buffers[id] = buffer
        lock.unlock()
        buffer.onTermination = { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.buffers[id] = nil }
        }
        return SessionEventStream(buffer: buffer)
    }

    func observe(_ observer: @escaping @Sendable (SessionEvent) -> Void) {
        lock.withLock { self.observer = observer }
    }

    func send(_ event: SessionEvent) {
        lock.lock()
        let observer = self.observer
        lock.unlock()
        observer?(event)
        handler?(event)
        lock.lock()
        let targets = Array(buffers.values)
        lock.unlock()
        for buffer in targets { buffer.add(event) }
    }

    func finish() {
        lock.lock()
        finished = true
        let targets = Array(buffers.values)
        buffers = [:]
        lock.unlock()
        for buffer in targets { buffer.finish() }
    }
}
