import Foundation

/// Hands each event to the handler and to every subscriber's `EventStream`, from whichever
/// thread the event happened on; finishing ends every stream.
final class EventFanOut<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let handler: (@Sendable (Event) -> Void)?
    private let kinds: EventKinds<Event>
    private var buffers: [Int: EventBuffer<Event>] = [:]
    private var nextID = 0
    private var finished = false
    /// Sees every event before the handler (the session wakes its monitor on a failed output).
    private var observer: (@Sendable (Event) -> Void)?

    init(handler: (@Sendable (Event) -> Void)?, kinds: EventKinds<Event>) {
        self.handler = handler
        self.kinds = kinds
    }

    /// A new stream of the events from now on (see `EventStream` for what a slow reader keeps).
    func stream(capacity: Int = EventStream<Event>.capacity) -> EventStream<Event> {
        let buffer = EventBuffer(capacity: capacity, kinds: kinds)
        lock.lock()
        if finished {
            lock.unlock()
            buffer.finish()
            return EventStream(buffer: buffer)
        }
        let id = nextID
        nextID += 1
        buffers[id] = buffer
        lock.unlock()
        buffer.onTermination = { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.buffers[id] = nil }
        }
        return EventStream(buffer: buffer)
    }

    func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        lock.withLock { self.observer = observer }
    }

    func send(_ event: Event) {
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

/// A session's fan-out: statistics coalesce, output failures stay.
typealias SessionEventFanOut = EventFanOut<SessionEvent>

extension EventFanOut where Event == SessionEvent {
    convenience init(handler: (@Sendable (SessionEvent) -> Void)?) {
        self.init(
            handler: handler,
            kinds: EventKinds(
                isStatistics: {
                    if case .statistics = $0 { return true }
                    return false
                },
                isPinned: {
                    if case .outputFailed = $0 { return true }
                    return false
                }))
    }
}
